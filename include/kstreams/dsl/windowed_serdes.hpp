// Serdes of windowed keys, byte-compatible with Kafka's (so Java applications can read the topics
// a windowed aggregation writes, and the other way round):
//   time-windowed key = key bytes ‖ 8-byte big-endian window start (TimeWindowedSerializer);
//   session key       = key bytes ‖ 8-byte BE end ‖ 8-byte BE start (SessionWindowedSerializer).
// A time-windowed key does not carry the window's size: reading one back needs it
// (windowed_serdes::time_windowed(size)); without it the end is the largest time, as Kafka's
// deserializer without a window size.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

#include <kstreams/error.hpp>
#include <kstreams/serde.hpp>
#include <kstreams/state/window_store.hpp>

namespace kstreams {

template <class K, class S = default_serde_t<K>>
struct time_windowed_serde {
    S inner{};
    std::int64_t window_size = INT64_MAX;

    void serialize(const windowed<K>& w, std::string& out) const {
        inner.serialize(w.key, out);
        detail::put_big_endian(w.window.start, out);
    }
    windowed<K> deserialize(std::string_view in) const {
        if (in.size() < 8)
            throw deserialization_error("time-windowed key: " + std::to_string(in.size()) +
                                        " bytes, fewer than the 8 of its window start");
        const auto start = detail::get_big_endian<std::int64_t>(in.substr(in.size() - 8));
        // Kafka clamps an end past the largest time to it.
        const std::int64_t end = start > INT64_MAX - window_size ? INT64_MAX : start + window_size;
        return {K(inner.deserialize(in.substr(0, in.size() - 8))), {start, end}};
    }
};

template <class K, class S = default_serde_t<K>>
struct session_windowed_serde {
    S inner{};

    void serialize(const windowed<K>& w, std::string& out) const {
        inner.serialize(w.key, out);
        detail::put_big_endian(w.window.end, out);
        detail::put_big_endian(w.window.start, out);
    }
    windowed<K> deserialize(std::string_view in) const {
        if (in.size() < 16)
            throw deserialization_error("session-windowed key: " + std::to_string(in.size()) +
                                        " bytes, fewer than the 16 of its session end and start");
        const auto end = detail::get_big_endian<std::int64_t>(in.substr(in.size() - 16));
        const auto start = detail::get_big_endian<std::int64_t>(in.substr(in.size() - 8));
        return {K(inner.deserialize(in.substr(0, in.size() - 16))), {start, end}};
    }
};

/// The default serde of a windowed key is the time-windowed one of the key's default serde (window
/// end unknown when read back). Windowed aggregations pass on the right one (session keys, window
/// size) to to_stream() and to(), so this is only used where nothing else is known.
template <class K>
    requires has_default_serde<K>
struct serde<windowed<K>> : time_windowed_serde<K, serde<K>> {};

/// Kafka's WindowedSerdes.
namespace windowed_serdes {
/// Time-windowed keys of windows of `size` (the end read back is start + size).
template <class K, class S = default_serde_t<K>>
time_windowed_serde<K, S> time_windowed(std::chrono::milliseconds size, S inner = S{}) {
    return {std::move(inner), size.count()};
}
template <class K, class S = default_serde_t<K>>
session_windowed_serde<K, S> session_windowed(S inner = S{}) {
    return {std::move(inner)};
}
}  // namespace windowed_serdes

}  // namespace kstreams
