// A tiny program built against an installed kstreams, as a user's project would be.
#include <cctype>
#include <iostream>

#include <kstreams/state/stores.hpp>
#include <kstreams/test/topology_test_driver.hpp>
#include <kstreams/topology.hpp>

namespace {
struct shout : kstreams::processor<std::string, std::string, std::string, std::string> {
    void process(const kstreams::record<std::string, std::string>& r) override {
        std::string v = r.value;
        for (auto& c : v) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        context().forward(r.with_value(v));
    }
};
}  // namespace

int main() {
    kstreams::topology t;
    t.add_source<std::string, std::string>("src", {"in"})
        .add_processor("shout", [] { return std::make_unique<shout>(); }, {"src"})
        .add_sink<std::string, std::string>("sink", "out", {"shout"});
    kstreams::test::topology_test_driver driver(t);
    driver.create_input_topic<std::string, std::string>("in").pipe_input("k", "installed kstreams works", 1);
    std::cout << driver.create_output_topic<std::string, std::string>("out").read_value() << "\n";
    return 0;
}
