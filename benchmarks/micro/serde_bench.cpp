// Case 3: serde round trips (serialize into a reused buffer, deserialize back) of a string (an
// 8-byte one that fits the small-string buffer and a 100-byte one that does not), an int64 and a
// std::optional<int64>, against hand-written byte copying and byte swapping.
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include <kstreams/serde.hpp>

#include "benchmarks/micro/harness.hpp"

namespace kstreams::bench {
namespace {

constexpr std::size_t value_count = 1024;

template <class T, class Make>
std::vector<T> values(Make make) {
    std::vector<T> out;
    for (std::size_t i = 0; i < value_count; ++i) out.push_back(make(i));
    return out;
}

std::string string_of(std::size_t size, std::size_t i) {
    std::string s(size, 'v');
    const std::string n = std::to_string(i);
    s.replace(0, n.size(), n);
    return s;
}

/// kstreams: the default serde of T.
template <class T>
void round_trip(benchmark::State& s, std::vector<T> vs) {
    const serde<T> sd;
    std::string buf;
    std::size_t i = 0;
    run_records(s, [&] {
        buf.clear();
        sd.serialize(vs[i++ & (value_count - 1)], buf);
        T back = sd.deserialize(buf);
        benchmark::DoNotOptimize(back);
    });
}

/// Hand-written: copy the bytes.
void string_by_hand(benchmark::State& s, std::vector<std::string> vs) {
    std::string buf;
    std::size_t i = 0;
    run_records(s, [&] {
        buf.assign(vs[i++ & (value_count - 1)]);
        std::string back(buf.data(), buf.size());
        benchmark::DoNotOptimize(back);
    });
}

std::int64_t swap_to_host(std::string_view b) {
    std::uint64_t u;
    std::memcpy(&u, b.data(), 8);
    return static_cast<std::int64_t>(__builtin_bswap64(u));
}

void put_swapped(std::int64_t v, std::string& out) {
    const std::uint64_t u = __builtin_bswap64(static_cast<std::uint64_t>(v));
    out.append(reinterpret_cast<const char*>(&u), 8);
}

/// Hand-written: byte-swap and copy 8 bytes (Kafka's LongSerde is big-endian).
void int64_by_hand(benchmark::State& s) {
    const auto vs = values<std::int64_t>([](std::size_t i) { return static_cast<std::int64_t>(i * 1000003); });
    std::string buf;
    std::size_t i = 0;
    run_records(s, [&] {
        buf.clear();
        put_swapped(vs[i++ & (value_count - 1)], buf);
        if (buf.size() != 8) throw std::runtime_error("unreachable");
        std::int64_t back = swap_to_host(buf);
        benchmark::DoNotOptimize(back);
    });
}

/// Hand-written: an empty optional is Kafka's null (no bytes); otherwise as int64.
void optional_by_hand(benchmark::State& s) {
    const auto vs = values<std::optional<std::int64_t>>([](std::size_t i) {
        return i % 4 == 3 ? std::nullopt : std::optional<std::int64_t>(static_cast<std::int64_t>(i));
    });
    std::string buf;
    std::size_t i = 0;
    run_records(s, [&] {
        const auto& v = vs[i++ & (value_count - 1)];
        buf.clear();
        std::optional<std::int64_t> back;
        if (v) {
            put_swapped(*v, buf);
            back = swap_to_host(buf);
        }
        benchmark::DoNotOptimize(back);
    });
}

/// kstreams: the optional serde, with null handled as the runtime does (is_null, no bytes).
void optional_round_trip(benchmark::State& s) {
    const auto vs = values<std::optional<std::int64_t>>([](std::size_t i) {
        return i % 4 == 3 ? std::nullopt : std::optional<std::int64_t>(static_cast<std::int64_t>(i));
    });
    const serde<std::optional<std::int64_t>> sd;
    std::string buf;
    std::size_t i = 0;
    run_records(s, [&] {
        const auto& v = vs[i++ & (value_count - 1)];
        buf.clear();
        std::optional<std::int64_t> back;
        if (!serde_is_null(sd, v)) {
            sd.serialize(v, buf);
            back = sd.deserialize(buf);
        }
        benchmark::DoNotOptimize(back);
    });
}

const bool registered = [] {
    for (std::size_t size : {8, 100}) {
        const std::string group = "serde/string:" + std::to_string(size) + "B";
        const auto strings = values<std::string>([size](std::size_t i) { return string_of(size, i); });
        add_baseline(group + "/baseline", [strings](benchmark::State& s) { string_by_hand(s, strings); });
        add_case(group + "/kstreams", [strings](benchmark::State& s) { round_trip<std::string>(s, strings); },
                 group + "/baseline");
    }
    add_baseline("serde/int64/baseline", int64_by_hand);
    add_case("serde/int64/kstreams", [](benchmark::State& s) {
        round_trip<std::int64_t>(s, values<std::int64_t>([](std::size_t i) { return static_cast<std::int64_t>(i * 1000003); }));
    }, "serde/int64/baseline");
    add_baseline("serde/optional_int64/baseline", optional_by_hand);
    add_case("serde/optional_int64/kstreams", optional_round_trip, "serde/optional_int64/baseline");
    return true;
}();

}  // namespace
}  // namespace kstreams::bench
