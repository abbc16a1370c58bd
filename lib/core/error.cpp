// Small out-of-line helpers of the public headers.
#include <cxxabi.h>

#include <cstdlib>
#include <memory>
#include <string>

#include <kstreams/detail/node.hpp>
#include <kstreams/detail/topology_model.hpp>
#include <kstreams/error.hpp>
#include <kstreams/serde.hpp>

namespace kstreams {

namespace detail {

void throw_wrong_size(const char* serde_name, std::size_t expected, std::size_t got) {
    throw deserialization_error(std::string("size of data received by the ") + serde_name + " deserializer is " +
                                std::to_string(got) + " bytes, expected " + std::to_string(expected));
}

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

bool serde<bool>::deserialize(std::string_view in) const {
    if (in.size() != 1) detail::throw_wrong_size("bool (Kafka BooleanSerde)", 1, in.size());
    if (in[0] == '\x01') return true;
    if (in[0] == '\x00') return false;
    throw deserialization_error("the bool (Kafka BooleanSerde) deserializer got a byte that is neither 0 nor 1");
}

void_value serde<void_value>::deserialize(std::string_view in) const {
    if (!in.empty())
        throw deserialization_error("the void (Kafka VoidSerde) deserializer got " + std::to_string(in.size()) +
                                    " bytes; it accepts only null");
    return {};
}

}  // namespace kstreams
