// Exceptions shared by the whole library.
#pragma once

#include <stdexcept>

namespace kstreams {

/// A mistake in how a topology was put together; thrown at build() and names the node.
class topology_error : public std::logic_error {
public:
    using std::logic_error::logic_error;
};

/// Bytes that a serde could not turn into a value (a short buffer, a wrong length, ...).
class deserialization_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// A failure while processing records; the message names where (topic, partition, offset, node).
class streams_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

}  // namespace kstreams

