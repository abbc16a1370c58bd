// ktable::suppress's buffer (Kafka's InMemoryTimeOrderedKeyValueChangeBuffer): see
// include/kstreams/dsl/detail/suppress_buffer.hpp. The changelog is Kafka's version 3: key = the
// key's bytes; value = record context, prior value, old value (-2: the same as the prior), new
// value, buffer time; header "v" = 3. Evicted keys are logged as tombstones.
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
        ctx.register_store(*this, [this](std::span<const restore_record> batch) { restore(batch); });
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
    }

    void evict_while(const std::function<bool()>& pred, const std::function<void(const buffer_eviction&)>& emit) override {
        while (!sorted_.empty() && pred()) {
            auto it = sorted_.begin();
            const std::string& key = it->first.second;
            emit(buffer_eviction{key, it->second.new_value, it->second.old_value, it->second.context});
            size_ -= record_size(key, it->second);
            std::string k = key;
            index_.erase(k);
            sorted_.erase(it);
            mark_dirty(std::move(k));
        }
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
            auto [time, v] = decode_suppress_changelog_value(*r.value);
            clean_put(time, std::move(key), std::move(v));
        }
    }

    std::string name_;
    bool logging_;
    bool open_ = false;
    store_context* ctx_ = nullptr;
    state::changelog_with_headers* with_headers_ = nullptr;
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
