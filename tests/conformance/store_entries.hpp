// How conformance scenarios show what a store holds, as Hunt15Scenarios.entries in Java:
// "key=value " per entry, windowed keys as key@start/end, timestamped values as value@ts.
#pragma once

#include <cstdint>
#include <string>

#include <kstreams/dsl.hpp>

#include "windowed_show.hpp"

namespace conformance {

inline std::string show_key(const std::string& k) { return k; }
inline std::string show_key(const kstreams::windowed<std::string>& w) { return show(w); }
inline std::string show_key(std::int64_t t) { return std::to_string(t); }
inline std::string show_value(const std::string& v) { return v; }
inline std::string show_value(std::int64_t v) { return std::to_string(v); }
template <class V>
std::string show_value(const kstreams::value_and_timestamp<V>& v) {
    return show_value(v.value) + "@" + std::to_string(v.timestamp);
}

/// Walks a store iterator to its end.
template <class It>
std::string entries(It it) {
    std::string out;
    while (it.has_next()) {
        const auto kv = it.next();
        out += show_key(kv.key) + "=" + show_value(kv.value) + " ";
    }
    return out;
}

}  // namespace conformance
