// Forward declarations of the public API, so headers that only mention a type stay light.
#pragma once

#include <cstdint>

namespace kstreams {

template <class K, class V> struct record;
class headers;
struct record_metadata;
template <class T> struct serde;
template <class KIn, class VIn, class KOut, class VOut> class processor;
template <class KOut, class VOut> class processor_context;
class topology;
class state_store;
template <class K, class V> class key_value_store;
class bytes_key_value_store;
class streams_builder;
template <class K, class V> class kstream;
template <class K, class V> class ktable;

namespace test {
class topology_test_driver;
}

}  // namespace kstreams
