// A name is spelled named::as("..."): a braced string is never a named, so that
// process(supplier, {"store"}) is always the store list (as Kafka's process(supplier, "store")).
#include <kstreams/dsl.hpp>

struct pass : kstreams::processor<std::string, std::string, std::string, std::string> {
    void process(const kstreams::record<std::string, std::string>& r) override { context().forward(r); }
};

int main() {
    kstreams::streams_builder b;
    auto s = b.stream<std::string, std::string>("in");
#ifdef KSTREAMS_COMPILE_FAIL_CONTROL
    s.process([] { return std::make_unique<pass>(); }, kstreams::named::as("p"), {"store"});
#else
    s.process([] { return std::make_unique<pass>(); }, kstreams::named{"p"}, {"store"});
#endif
}
