// The per-record work shared by a kstreams case and its hand-written baseline: the same functors,
// the same records, the same serdes, so a ratio compares only what the framework adds.
#pragma once

#include <cstdint>
#include <string>

#include <benchmark/benchmark.h>

#include <kstreams/serde.hpp>
#include <kstreams/state/key_value_store.hpp>

#include "benchmarks/micro/task_bench.hpp"

namespace kstreams::bench {

using key_t = std::int32_t;
using value_t = std::int64_t;

/// Records kept in memory and cycled through (a power of two).
inline constexpr std::size_t record_count = 16384;
/// Distinct keys, as in Kafka Streams' SimpleBenchmark.
inline constexpr std::int32_t key_count = 10000;

/// int32 keys over 10,000 keys, int64 values 0, 1, 2, ...; `hdrs` on every record if given.
inline raw_records int_records(std::string topic = "in", const headers* hdrs = nullptr) {
    return make_records(
        std::move(topic), record_count, key_count,
        [](std::size_t i) {
            std::string v;
            serde<value_t>{}.serialize(static_cast<value_t>(i), v);
            return v;
        },
        hdrs);
}

/// Two headers as a traced application might carry (values longer than a small string).
inline const headers& two_headers() {
    static const headers h{{"traceparent", std::string("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")},
                           {"content-type", std::string("application/octet-stream")}};
    return h;
}

// The four stateless operators of the chain. Each keeps every record (values stay non-negative)
// so that a chain of N operators does N operators' work per record.
struct add_one {
    value_t operator()(value_t v) const { return v + 1; }
};
struct non_negative {
    bool operator()(key_t, value_t v) const { return v >= 0; }
};
struct flip_key {
    key_value<key_t, value_t> operator()(key_t k, value_t v) const { return {k ^ 1, v}; }
};
struct observe {
    void operator()(key_t k, value_t v) const {
        benchmark::DoNotOptimize(k);
        benchmark::DoNotOptimize(v);
    }
};

/// The chain's j-th operator kind: map_values, filter, map, peek, map_values, ...
enum class op_kind { map_values, filter, map, peek };
constexpr op_kind op_at(int j) { return static_cast<op_kind>(j % 4); }

/// The hand-written chain: the same functors called in a row. False when filtered out.
template <int N>
inline bool hand_written_chain(key_t& k, value_t& v) {
    bool keep = true;
    [&]<int... J>(std::integer_sequence<int, J...>) {
        ((keep = keep && [&] {
              constexpr op_kind kind = op_at(J);
              if constexpr (kind == op_kind::map_values) v = add_one{}(v);
              else if constexpr (kind == op_kind::filter) return non_negative{}(k, v);
              else if constexpr (kind == op_kind::map) {
                  auto kv = flip_key{}(k, v);
                  k = kv.key;
                  v = kv.value;
              } else observe{}(k, v);
              return true;
          }()),
         ...);
    }(std::make_integer_sequence<int, N>{});
    return keep;
}

/// The sink's job in a baseline: serialize and hand the bytes to the producer (here the same
/// counting collector the framework's sink sends to, called through the same interface).
struct hand_written_sink {
    counting_collector collector;
    detail::record_collector* out = &collector;
    std::string key_buf, value_buf;
    const headers no_headers;

    template <class K, class V, class KS = serde<K>, class VS = serde<V>>
    void send(const K& k, const V& v, std::int64_t ts, const KS& ks = KS{}, const VS& vs = VS{},
              const headers* hdrs = nullptr) {
        key_buf.clear();
        value_buf.clear();
        ks.serialize(k, key_buf);
        vs.serialize(v, value_buf);
        benchmark::DoNotOptimize(out);
        out->send("out", std::nullopt, key_buf, value_buf, ts, hdrs ? *hdrs : no_headers, "sink");
    }
};

}  // namespace kstreams::bench
