// Small out-of-line helpers of the public headers.
#include <cxxabi.h>

#include <cstdlib>
#include <memory>
#include <string>

#include <kstreams/detail/node.hpp>
#include <kstreams/detail/topology_model.hpp>
#include <kstreams/error.hpp>

namespace kstreams {

namespace detail {

std::string describe_type(std::type_index t) {
    int status = 0;
    std::unique_ptr<char, void (*)(void*)> demangled(abi::__cxa_demangle(t.name(), nullptr, nullptr, &status),
                                                     std::free);
    return status == 0 && demangled ? std::string(demangled.get()) : std::string(t.name());
}

node& node::child_named(std::string_view child) const {
    for (node* c : children_)
        if (c->name() == child) return *c;
    throw streams_error("processor " + name_ + " has no child named " + std::string(child));
}

void source_node::process_erased(const void*) {
    throw streams_error("source " + name() + " takes records only from topics");
}

}  // namespace detail

}  // namespace kstreams
