// The typed sink node: record<K,V> in, bytes out to the task's record collector.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include <kstreams/detail/node.hpp>
#include <kstreams/detail/task_context.hpp>
#include <kstreams/record.hpp>
#include <kstreams/serde.hpp>

namespace kstreams {

/// Chooses the partition of a record; nullopt leaves it to the default (murmur2 of the key bytes).
template <class K, class V>
using stream_partitioner =
    std::function<std::optional<std::int32_t>(std::string_view topic, const K& key, const V& value,
                                              std::int32_t num_partitions)>;

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
    }
    void process_erased(const void* p) override {
        const auto& r = *static_cast<const record<K, V>*>(p);
        std::optional<std::string_view> key, value;
        key_buf_.clear();
        value_buf_.clear();
        if (!has_null_key(r) && !serde_is_null(ks_, r.key)) {
            ks_.serialize(r.key, key_buf_);
            key = key_buf_;
        }
        if (!has_null_value(r) && !serde_is_null(vs_, r.value)) {
            vs_.serialize(r.value, value_buf_);
            value = value_buf_;
        }
        record_collector& out = *out_;
        if (!extractor_) {
            out.send(topic_, pick_partition(out, topic_, r), key, value, r.timestamp, r.headers, name());
            return;
        }
        const std::string topic = extractor_(r, ctx_->current_metadata());
        out.send(topic, pick_partition(out, topic, r), key, value, r.timestamp, r.headers, name());
    }

private:
    static contextual_topic_name_extractor<K, V> with_context(topic_name_extractor<K, V> f) {
        if (!f) return {};
        return [f = std::move(f)](const record<K, V>& r, const record_metadata*) { return f(r); };
    }
    std::optional<std::int32_t> pick_partition(record_collector& out, std::string_view topic,
                                               const record<K, V>& r) const {
        if (!partitioner_) return std::nullopt;
        return partitioner_(topic, r.key, r.value, out.partition_count(topic));
    }

    contextual_topic_name_extractor<K, V> extractor_;
    KS ks_;
    VS vs_;
    stream_partitioner<K, V> partitioner_;
    std::string key_buf_;
    std::string value_buf_;
    record_collector* out_ = nullptr;
};

}  // namespace kstreams::detail
