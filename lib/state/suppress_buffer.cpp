// ktable::suppress's buffer (Kafka's InMemoryTimeOrderedKeyValueChangeBuffer): see
// include/kstreams/dsl/detail/suppress_buffer.hpp. The changelog is Kafka's version 3: key = the
// key's bytes; value = record context, prior value, old value (-2: the same as the prior), new
// value, buffer time; header "v" = 3. Evicted keys are logged as tombstones. Restoring reads every
// version Kafka's buffer restores (0 to 3, by the "v" header). An evicted key is forwarded in its
// buffered record's context (topic, partition, offset), as Kafka's. Its size and count go to
// Kafka's suppression-buffer-size/-count metrics (sum, count and max counters per store).
#include <kstreams/dsl/detail/suppress_buffer.hpp>

#include <algorithm>
#include <limits>
#include <map>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include <kstreams/error.hpp>
#include <kstreams/serde.hpp>

#include "lib/core/java_order.hpp"
#include "lib/state/suppress_changelog.hpp"
#include "lib/state/store_resources.hpp"
#include "lib/state/task_store_hooks.hpp"

namespace kstreams::dsl_detail {

namespace {

using buffer_value = suppress_buffer_value;

std::size_t utf16_length(std::string_view s) {
    // Java counts the topic's and header keys' chars (UTF-16 units).
    if (std::all_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; })) return s.size();
    return kstreams::detail::java::to_utf16(s).size();
}

std::int64_t context_size(const buffered_context& c) {
    std::int64_t size = 8 + 8 + static_cast<std::int64_t>(utf16_length(c.topic)) + 4;
    for (const header& h : c.hdrs) size += static_cast<std::int64_t>(utf16_length(h.key) + (h.value ? h.value->size() : 0));
    return size;
}

/// Kafka's computeRecordSize: buffer time, key, values (the old one unless it is the prior), context.
std::int64_t record_size(std::string_view key, const buffer_value& v) {
    std::int64_t size = 8 + static_cast<std::int64_t>(key.size());
    if (v.prior) size += static_cast<std::int64_t>(v.prior->size());
    if (v.old_value && !v.prior_is_old()) size += static_cast<std::int64_t>(v.old_value->size());
    if (v.new_value) size += static_cast<std::int64_t>(v.new_value->size());
    return size + context_size(v.context);
}

/// Where java.util.HashSet<Bytes> puts a key (Bytes.hashCode is Arrays.hashCode of the bytes):
/// the buffer logs its dirty keys in that set's order, as Kafka's does.
std::uint32_t java_bytes_hash(std::string_view key) {
    std::int32_t h = 1;
    for (char c : key) h = static_cast<std::int32_t>(31u * static_cast<std::uint32_t>(h) + static_cast<std::uint32_t>(static_cast<std::int32_t>(static_cast<signed char>(c))));
    const auto u = static_cast<std::uint32_t>(h);
    return u ^ (u >> 16);
}

class suppress_buffer_impl final : public suppress_buffer {
public:
    suppress_buffer_impl(std::string name, bool logging) : name_(std::move(name)), logging_(logging) {}

    const std::string& name() const override { return name_; }
    bool persistent() const override { return false; }
    bool is_open() const override { return open_; }

    void init(store_context& ctx) override {
        ctx_ = &ctx;
        with_headers_ = dynamic_cast<state::changelog_with_headers*>(&ctx);
        metadata_hooks_ = dynamic_cast<state::record_metadata_hooks*>(&ctx);
        restore_hooks_ = dynamic_cast<const state::restore_origin_hooks*>(&ctx);
        bind_metrics(ctx);
        ctx.register_store(*this, [this](std::span<const restore_record> batch) { restore(batch); });
        update_metrics();
        open_ = true;
    }
    void flush() override {}
    // Kafka's buffer logs on its flush, which runs on every commit: here that is flush_cache().
    void flush_cache() override {
        if (!logging_ || dirty_.empty()) return;
        std::stable_sort(dirty_.begin(), dirty_.end(), [this](const std::string& a, const std::string& b) {
            return (java_bytes_hash(a) & (java_capacity_ - 1)) < (java_bytes_hash(b) & (java_capacity_ - 1));
        });
        static const headers v3{{"v", std::string(1, '\x03')}};
        for (const std::string& key : dirty_) {
            auto it = index_.find(key);
            if (it == index_.end()) {
                log(key, std::nullopt, headers{});
            } else {
                const std::string value = encode_suppress_changelog_value(sorted_.at({it->second, key}), it->second);
                log(key, value, v3);
            }
        }
        dirty_.clear();
        dirty_set_.clear();
    }
    void close() override {
        open_ = false;
        index_.clear();
        sorted_.clear();
        dirty_.clear();
        dirty_set_.clear();
        size_ = 0;
        update_metrics();
    }

    void put(std::int64_t time, std::string_view key, std::optional<std::string> new_value,
             std::optional<std::string> old_value, buffered_context context) override {
        buffer_value v;
        auto it = index_.find(std::string(key));
        if (it == index_.end()) v.prior = old_value;
        else v.prior = sorted_.at({it->second, std::string(key)}).prior;
        v.old_value = std::move(old_value);
        v.new_value = std::move(new_value);
        v.context = std::move(context);
        clean_put(time, std::string(key), std::move(v));
        mark_dirty(std::string(key));
        update_metrics();
    }

    void evict_while(const std::function<bool()>& pred, const std::function<void(const buffer_eviction&)>& emit) override {
        if (sorted_.empty() || !pred()) return;
        // Each key is forwarded in its buffered record's context, then the caller's is restored.
        struct restore_metadata {
            state::record_metadata_hooks* hooks;
            state::stored_metadata saved = hooks ? hooks->current_stored_metadata() : state::stored_metadata{};
            ~restore_metadata() {
                if (hooks) hooks->set_stored_metadata(saved);
            }
        } saved_context{metadata_hooks_};
        bool evicted = false;
        while (!sorted_.empty() && pred()) {
            auto it = sorted_.begin();
            const std::string& key = it->first.second;
            const buffered_context& c = it->second.context;
            if (metadata_hooks_)
                metadata_hooks_->set_stored_metadata({c.topic.empty() ? nullptr : &c.topic, c.partition, c.offset, nullptr});
            emit(buffer_eviction{key, it->second.new_value, it->second.old_value, c});
            size_ -= record_size(key, it->second);
            std::string k = key;
            index_.erase(k);
            sorted_.erase(it);
            mark_dirty(std::move(k));
            evicted = true;
        }
        if (evicted) update_metrics();
    }

    std::optional<std::optional<std::string>> prior_value(std::string_view key) const override {
        auto it = index_.find(std::string(key));
        if (it == index_.end()) return std::nullopt;
        return sorted_.at({it->second, std::string(key)}).prior;
    }
    std::int64_t num_records() const override { return static_cast<std::int64_t>(index_.size()); }
    std::int64_t buffer_size() const override { return size_; }
    std::int64_t min_timestamp() const override {
        return sorted_.empty() ? std::numeric_limits<std::int64_t>::max() : sorted_.begin()->first.first;
    }

private:
    /// Kafka's "non-resetting" put: a key already buffered keeps its place (its first time).
    void clean_put(std::int64_t time, std::string key, buffer_value v) {
        auto it = index_.find(key);
        if (it == index_.end()) {
            size_ += record_size(key, v);
            index_.emplace(key, time);
            sorted_.emplace(std::make_pair(time, std::move(key)), std::move(v));
            return;
        }
        buffer_value& slot = sorted_.at({it->second, key});
        size_ += record_size(key, v) - record_size(key, slot);
        slot = std::move(v);
    }
    void mark_dirty(std::string key) {
        if (!logging_ || !dirty_set_.insert(key).second) return;
        dirty_.push_back(std::move(key));
        // java.util.HashSet's table: 16 buckets, doubled past 3/4 full, never shrunk by clear().
        while (static_cast<double>(dirty_set_.size()) > static_cast<double>(java_capacity_) * 0.75) java_capacity_ *= 2;
    }
    void log(std::string_view key, std::optional<std::string_view> value, const headers& hdrs) {
        if (with_headers_) with_headers_->log_change(name_, key, value, state::no_timestamp, hdrs);
        else ctx_->log_change(name_, key, value, state::no_timestamp);
    }
    void restore(std::span<const restore_record> batch) {
        static const headers version_3{{"v", std::string(1, '\x03')}};
        headers scratch;
        for (const restore_record& r : batch) {
            std::string key(r.key);
            if (!r.value) {
                auto it = index_.find(key);
                if (it == index_.end()) continue;
                auto s = sorted_.find({it->second, key});
                size_ -= record_size(key, s->second);
                sorted_.erase(s);
                index_.erase(it);
                continue;
            }
            // Without the record's origin (a runner that does not say), it is taken as version 3.
            const std::optional<state::restore_origin> origin = restore_hooks_ ? restore_hooks_->restore_origin_of(r, scratch)
                                                                               : std::nullopt;
            const headers& hdrs = origin && origin->hdrs ? *origin->hdrs : version_3;
            buffered_context changelog_context;  // version 0 keeps no context: the changelog record's
            if (origin) {
                changelog_context = {r.timestamp, origin->offset, std::string(origin->topic), origin->partition, hdrs};
            }
            auto [time, v] = decode_suppress_changelog_record(*r.value, hdrs, changelog_context, prior_value(key));
            clean_put(time, std::move(key), std::move(v));
        }
        update_metrics();
    }

    void bind_metrics(store_context& ctx) {
        auto* res = ctx.resources();
        if (!res || !res->metrics) return;
        auto& m = *res->metrics;
        for (int i = 0; i < 2; ++i) {
            const std::string prefix = std::string(i == 0 ? "suppression-buffer-size." : "suppression-buffer-count.") + name_;
            gauges_[i] = {&m.counter(prefix + ".sum"), &m.counter(prefix + ".count"), &m.counter(prefix + ".max")};
        }
        m.counter("store-scope." + name_ + ".in-memory-suppression") = 1;
    }
    /// Kafka's updateBufferMetrics: the buffer's size and count recorded after each change.
    void update_metrics() {
        const std::int64_t values[2] = {size_, static_cast<std::int64_t>(index_.size())};
        for (int i = 0; i < 2; ++i) {
            if (!gauges_[i].sum) continue;
            const auto v = static_cast<std::uint64_t>(std::max<std::int64_t>(0, values[i]));
            *gauges_[i].sum += v;
            *gauges_[i].count += 1;
            *gauges_[i].max = std::max(*gauges_[i].max, v);
        }
    }

    std::string name_;
    bool logging_;
    bool open_ = false;
    store_context* ctx_ = nullptr;
    state::changelog_with_headers* with_headers_ = nullptr;
    state::record_metadata_hooks* metadata_hooks_ = nullptr;
    const state::restore_origin_hooks* restore_hooks_ = nullptr;
    struct gauge {  ///< a recorded value's sum, count and maximum (task counters)
        std::uint64_t* sum = nullptr;
        std::uint64_t* count = nullptr;
        std::uint64_t* max = nullptr;
    };
    gauge gauges_[2];  ///< size, count
    std::unordered_map<std::string, std::int64_t> index_;                   ///< key -> buffer time
    std::map<std::pair<std::int64_t, std::string>, buffer_value> sorted_;  ///< by time, then key bytes
    std::vector<std::string> dirty_;                                         ///< in insertion order
    std::unordered_set<std::string> dirty_set_;
    std::size_t java_capacity_ = 16;
    std::int64_t size_ = 0;
};

class suppress_buffer_builder_impl final : public store_builder {
public:
    suppress_buffer_builder_impl(std::string name, bool logging, std::map<std::string, std::string> config)
        : name_(std::move(name)), logging_{logging, std::move(config)} {}
    const std::string& name() const override { return name_; }
    std::unique_ptr<state_store> build() const override {
        return std::make_unique<suppress_buffer_impl>(name_, logging_.enabled);
    }
    bool logging_enabled() const override { return logging_.enabled; }
    const logging_config& logging() const override { return logging_; }
    bool caching_enabled() const override { return false; }

private:
    std::string name_;
    logging_config logging_;
};

}  // namespace

std::shared_ptr<const store_builder> suppress_buffer_builder(std::string name, bool logging,
                                                             std::map<std::string, std::string> log_config) {
    return std::make_shared<suppress_buffer_builder_impl>(std::move(name), logging, std::move(log_config));
}

}  // namespace kstreams::dsl_detail
