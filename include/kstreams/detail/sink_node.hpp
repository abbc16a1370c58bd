// The typed sink node: record<K,V> in, bytes out to the task's record collector.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <kstreams/detail/node.hpp>
#include <kstreams/detail/task_context.hpp>
#include <kstreams/record.hpp>
#include <kstreams/serde.hpp>

namespace kstreams {

/// What a stream partitioner answers (Kafka's StreamPartitioner.partitions, KIP-837): nothing
/// (std::nullopt, the default: the producer's murmur2 of the key bytes), one partition, or a set
/// of partitions: a copy of the record is written to each, in ascending order, and an empty set
/// writes none (the record is dropped and counted in dropped-records, as Kafka's record collector
/// does).
class partition_choice {
public:
    partition_choice() = default;
    partition_choice(std::nullopt_t) {}
    partition_choice(std::int32_t partition) : kind_(kind::one), one_(partition) {}
    partition_choice(std::optional<std::int32_t> partition) {
        if (partition) *this = partition_choice(*partition);
    }
    partition_choice(std::set<std::int32_t> partitions)
        : kind_(kind::many), many_(partitions.begin(), partitions.end()) {}
    partition_choice(std::optional<std::set<std::int32_t>> partitions) {
        if (partitions) *this = partition_choice(std::move(*partitions));
    }
    /// No partition: the record is dropped (Kafka's Optional.of(Collections.emptySet())).
    static partition_choice none() { return partition_choice(std::set<std::int32_t>{}); }

    /// The default partitioner decides.
    bool is_default() const { return kind_ == kind::unset; }
    /// The chosen partitions (empty: drop), when !is_default().
    std::span<const std::int32_t> partitions() const {
        if (kind_ == kind::one) return {&one_, 1};
        return many_;
    }

private:
    enum class kind : std::uint8_t { unset, one, many };
    kind kind_ = kind::unset;
    std::int32_t one_ = 0;
    std::vector<std::int32_t> many_;
};

/// Chooses the partitions of a record (Kafka's StreamPartitioner): a callable
/// `(topic, key, value, partition_count)` or, reading the record's headers too,
/// `(topic, key, value, const headers&, partition_count)`, answering a partition_choice or anything
/// that converts to one (std::optional<std::int32_t>, std::set<std::int32_t>,
/// std::optional<std::set<std::int32_t>>). An empty one leaves every record to the default.
template <class K, class V>
class stream_partitioner {
public:
    stream_partitioner() = default;
    stream_partitioner(std::nullptr_t) {}
    template <class F>
        requires(!std::is_same_v<std::decay_t<F>, stream_partitioner> &&
                 (std::is_invocable_r_v<partition_choice, const F&, std::string_view, const K&, const V&, const headers&,
                                        std::int32_t> ||
                  std::is_invocable_r_v<partition_choice, const F&, std::string_view, const K&, const V&, std::int32_t>))
    stream_partitioner(F f) {
        if constexpr (std::is_invocable_r_v<partition_choice, const F&, std::string_view, const K&, const V&, const headers&,
                                            std::int32_t>) {
            f_ = std::move(f);
        } else {
            f_ = [f = std::move(f)](std::string_view topic, const K& k, const V& v, const headers&, std::int32_t n) {
                return partition_choice(f(topic, k, v, n));
            };
        }
    }

    explicit operator bool() const { return static_cast<bool>(f_); }
    partition_choice operator()(std::string_view topic, const K& key, const V& value, const headers& hs,
                                std::int32_t partition_count) const {
        return f_(topic, key, value, hs, partition_count);
    }
    partition_choice operator()(std::string_view topic, const K& key, const V& value, std::int32_t partition_count) const {
        return f_(topic, key, value, headers{}, partition_count);
    }

private:
    std::function<partition_choice(std::string_view, const K&, const V&, const headers&, std::int32_t)> f_;
};

/// Chooses the topic of each record (a dynamic sink).
template <class K, class V>
using topic_name_extractor = std::function<std::string(const record<K, V>& r)>;
/// As topic_name_extractor, also told where the record being processed came from (Kafka's
/// TopicNameExtractor with its RecordContext: source topic, partition, offset; the record holds
/// the timestamp and headers). `source` is null for records forwarded by a punctuation.
template <class K, class V>
using contextual_topic_name_extractor =
    std::function<std::string(const record<K, V>& r, const record_metadata* source)>;

}  // namespace kstreams

namespace kstreams::detail {

/// A sink whose topic the runtime may rename (internal topics get the application.id prefix).
class sink_node_base : public node {
public:
    using node::node;
    const std::string& topic() const { return topic_; }
    void set_topic(std::string topic) { topic_ = std::move(topic); }

protected:
    std::string topic_;
};

template <class K, class V, class KS, class VS>
class sink_node final : public sink_node_base {
public:
    sink_node(std::string name, std::string topic, topic_name_extractor<K, V> extractor, KS ks, VS vs,
              stream_partitioner<K, V> partitioner)
        : sink_node(std::move(name), std::move(topic), with_context(std::move(extractor)), std::move(ks), std::move(vs),
                    std::move(partitioner)) {}
    sink_node(std::string name, std::string topic, contextual_topic_name_extractor<K, V> extractor, KS ks, VS vs,
              stream_partitioner<K, V> partitioner)
        : sink_node_base(std::move(name)),
          extractor_(std::move(extractor)),
          ks_(std::move(ks)),
          vs_(std::move(vs)),
          partitioner_(std::move(partitioner)) {
        topic_ = std::move(topic);
    }

    void init(task_context& ctx) override {
        sink_node_base::init(ctx);
        out_ = &ctx.collector();  // a task's collector is fixed for its life: no virtual call per record
        latency_ = ctx.e2e_latency_at(*this);
    }
    /// As Kafka's SinkNode and RecordCollectorImpl.send: the topic, then the partitions, then the
    /// bytes. A record the partitioner sends nowhere is never serialized; a serialization error
    /// goes to the production handler once per partition it was for. Errors are not handled
    /// here: the node that forwarded to the sink handles them (Kafka's SinkNode has no
    /// processing-handler block of its own). The e2e latency is recorded once per record the sink
    /// processed without an error, as Kafka records it after a terminal node's process().
    void process_erased(const void* p) override {
        const auto& r = *static_cast<const record<K, V>*>(p);
        record_collector& out = *out_;
        if (!extractor_) {
            send(out, topic_, r);
        } else {
            const std::string topic = extractor_(r, ctx_->current_metadata());
            send(out, topic, r);
        }
        if (latency_) latency_->record(r.timestamp);
    }

private:
    static contextual_topic_name_extractor<K, V> with_context(topic_name_extractor<K, V> f) {
        if (!f) return {};
        return [f = std::move(f)](const record<K, V>& r, const record_metadata*) { return f(r); };
    }

    /// The bytes of `v`: written into `fixed` where the serde has a fixed width (no
    /// std::string::append call), else into `buf`.
    template <class S, class T>
    static std::string_view serialize_one(const S& s, const T& v, std::string& buf, char* fixed) {
        if constexpr (fixed_width_serde<S, T>) {
            s.serialize_fixed(v, fixed);
            return {fixed, S::fixed_width};
        } else {
            if constexpr (requires { s.serialize_fixed_or_none(v, fixed); })  // a serde_ref
                if (const std::size_t n = s.serialize_fixed_or_none(v, fixed)) return {fixed, n};
            buf.clear();
            s.serialize(v, buf);
            return buf;
        }
    }

    /// Serializes key and value into the buffers; false (after the production handler let the
    /// record go) when a serializer threw.
    bool serialize(const record<K, V>& r, std::string_view topic, std::optional<std::int32_t> partition) {
        key_.reset();
        value_.reset();
        try {
            if (!has_null_key(r) && !serde_is_null(ks_, r.key)) key_ = serialize_one(ks_, r.key, key_buf_, key_fixed_);
            if (!has_null_value(r) && !serde_is_null(vs_, r.value))
                value_ = serialize_one(vs_, r.value, value_buf_, value_fixed_);
        } catch (const std::exception&) {
            ctx_->serialization_failed(*this, topic, partition, r.timestamp);  // throws, or drops the record
            return false;
        }
        return true;
    }

    void send_to(record_collector& out, std::string_view topic, std::optional<std::int32_t> partition,
                 const record<K, V>& r) {
        if (serialize(r, topic, partition)) out.send(topic, partition, key_, value_, r.timestamp, r.headers, name());
    }

    /// The default partition, a copy to each chosen partition, or none (dropped and counted).
    void send(record_collector& out, std::string_view topic, const record<K, V>& r) {
        if (!partitioner_) {
            send_to(out, topic, std::nullopt, r);
            return;
        }
        const partition_choice choice = partitioner_(topic, r.key, r.value, r.headers, out.partition_count(topic));
        if (choice.is_default()) {
            send_to(out, topic, std::nullopt, r);
            return;
        }
        if (choice.partitions().empty()) {
            ctx_->record_dropped("dropped-records.no-partition", *this);  // partitioner chose none
            return;
        }
        for (const std::int32_t partition : choice.partitions()) send_to(out, topic, partition, r);
    }

    contextual_topic_name_extractor<K, V> extractor_;
    KS ks_;
    VS vs_;
    stream_partitioner<K, V> partitioner_;
    std::string key_buf_;
    std::string value_buf_;
    char key_fixed_[max_fixed_width];  ///< the bytes of a fixed_width_serde's key
    char value_fixed_[max_fixed_width];
    std::optional<std::string_view> key_, value_;
    record_collector* out_ = nullptr;
    e2e_latency_sensor* latency_ = nullptr;
};

}  // namespace kstreams::detail
