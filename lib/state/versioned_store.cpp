#include "lib/state/versioned_store.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include <kstreams/error.hpp>
#include <kstreams/serde.hpp>

#include "lib/state/expired_writes.hpp"
#include "lib/state/forwarding_store_context.hpp"
#include "lib/state/in_memory_key_value_store.hpp"
#include "lib/state/rocksdb_key_value_store.hpp"
#include "lib/state/store_resources.hpp"

namespace kstreams::state {

namespace {

/// Hands the inner store's registration on with the versioned store's own restore: the changelog
/// holds puts (timestamped), not the inner store's bytes.
class versioned_restore_context final : public forwarding_store_context {
public:
    versioned_restore_context(store_context& inner, restore_callback restore)
        : forwarding_store_context(inner), restore_(std::move(restore)) {}
    void register_store(state_store& store, restore_callback) override { inner_->register_store(store, restore_); }

private:
    restore_callback restore_;
};

std::optional<versioned_record<std::string>> record_at(const std::vector<version>& h, std::size_t i) {
    if (!h[i].value) return std::nullopt;
    versioned_record<std::string> r{*h[i].value, h[i].timestamp, std::nullopt};
    if (i + 1 < h.size()) r.valid_to = h[i + 1].timestamp;
    return r;
}

}  // namespace

versioned_history_store::versioned_history_store(std::unique_ptr<bytes_key_value_store> inner, std::int64_t history_retention)
    : wrapped_store(std::move(inner)), retention_(history_retention) {}

void versioned_history_store::init(store_context& ctx) {
    ctx_ = &ctx;
    versioned_restore_context restoring(ctx, [this](std::span<const restore_record> batch) { restore(batch); });
    inner_->init(restoring);
}

std::int64_t versioned_history_store::cutoff() const {
    if (observed_stream_time_ < std::numeric_limits<std::int64_t>::min() + retention_)
        return std::numeric_limits<std::int64_t>::min();
    return observed_stream_time_ - retention_;
}

void versioned_history_store::count_expired() {
    count_expired_write(ctx_, warned_, name(), "a record for an expired put (older than the history retention)");
}

std::int64_t versioned_history_store::put(std::string_view key, std::optional<std::string_view> value,
                                          std::int64_t timestamp) {
    if (expired(timestamp)) {
        count_expired();
        return put_not_put;
    }
    observed_stream_time_ = std::max(observed_stream_time_, timestamp);
    return apply(key, value, timestamp);
}

std::int64_t versioned_history_store::apply(std::string_view key, std::optional<std::string_view> value,
                                            std::int64_t timestamp) {
    std::vector<version> h;
    if (inner_->get_into(key, buf_)) h = decode_history(buf_);
    auto at = std::lower_bound(h.begin(), h.end(), timestamp,
                               [](const version& v, std::int64_t ts) { return v.timestamp < ts; });
    if (at != h.end() && at->timestamp == timestamp) {
        if (value) at->value.emplace(*value);
        else at->value.reset();
    } else {
        at = h.insert(at, version{timestamp, value ? std::optional<std::string>(*value) : std::nullopt});
    }
    const std::size_t index = static_cast<std::size_t>(at - h.begin());
    const std::int64_t valid_to = index + 1 < h.size() ? h[index + 1].timestamp : put_valid_to_undefined;

    // Prune what no reader can see any more: versions whose validity ended at or before the
    // cutoff, and a latest tombstone at or before it.
    const std::int64_t cut = cutoff();
    std::size_t keep_from = 0;
    while (keep_from + 1 < h.size() && h[keep_from + 1].timestamp <= cut) ++keep_from;
    if (keep_from + 1 == h.size() && !h.back().value && h.back().timestamp <= cut) keep_from = h.size();
    h.erase(h.begin(), h.begin() + static_cast<std::ptrdiff_t>(keep_from));

    if (h.empty()) inner_->erase(key);
    else inner_->put(key, encode_history(h));
    return valid_to;
}

std::optional<versioned_record<std::string>> versioned_history_store::get(std::string_view key) {
    if (!inner_->get_into(key, buf_)) return std::nullopt;
    const std::vector<version> h = decode_history(buf_);
    if (h.empty()) return std::nullopt;
    return record_at(h, h.size() - 1);
}

std::optional<versioned_record<std::string>> versioned_history_store::get(std::string_view key, std::int64_t as_of) {
    if (!inner_->get_into(key, buf_)) return std::nullopt;
    const std::vector<version> h = decode_history(buf_);
    if (h.empty()) return std::nullopt;
    if (expired(as_of)) {
        // Past the history retention only the latest version answers, when it is old enough.
        if (h.back().timestamp <= as_of) return record_at(h, h.size() - 1);
        return std::nullopt;
    }
    auto after = std::upper_bound(h.begin(), h.end(), as_of,
                                  [](std::int64_t ts, const version& v) { return ts < v.timestamp; });
    if (after == h.begin()) return std::nullopt;
    return record_at(h, static_cast<std::size_t>(after - h.begin()) - 1);
}

std::optional<std::vector<versioned_record<std::string>>> versioned_history_store::versions(std::string_view key,
                                                                                           std::int64_t from,
                                                                                           std::int64_t to) {
    std::vector<versioned_record<std::string>> out;
    if (!inner_->get_into(key, buf_)) return out;
    const std::vector<version> h = decode_history(buf_);
    const std::int64_t cut = cutoff();
    for (std::size_t i = 0; i < h.size(); ++i) {
        if (!h[i].value || h[i].timestamp > to) continue;
        const bool latest = i + 1 == h.size();
        // As get(key, as_of): history whose validity ended at or before the cutoff is gone, past
        // the retention only the latest version answers.
        if (!latest && (h[i + 1].timestamp <= from || h[i + 1].timestamp <= cut || expired(to))) continue;
        out.push_back(*record_at(h, i));
    }
    return out;
}

std::optional<versioned_record<std::string>> versioned_history_store::remove(std::string_view key,
                                                                             std::int64_t timestamp) {
    if (expired(timestamp)) {
        count_expired();
        return std::nullopt;
    }
    auto existing = get(key, timestamp);
    observed_stream_time_ = std::max(observed_stream_time_, timestamp);
    apply(key, std::nullopt, timestamp);
    return existing;
}

void versioned_history_store::restore(std::span<const restore_record> batch) {
    for (const auto& r : batch) {
        if (expired(r.timestamp)) continue;  // never written to the store
        observed_stream_time_ = std::max(observed_stream_time_, r.timestamp);
        apply(r.key, r.value, r.timestamp);
    }
}

}  // namespace kstreams::state

namespace kstreams::stores {

namespace {

/// Kafka's RocksDbVersionedKeyValueBytesStoreSupplier default segment interval.
std::int64_t default_segment_interval(std::int64_t retention) {
    if (retention <= 60'000) return std::max<std::int64_t>(retention / 3, 2'000);
    if (retention <= 300'000) return std::max<std::int64_t>(retention / 5, 20'000);
    if (retention <= 3'600'000) return std::max<std::int64_t>(retention / 12, 60'000);
    return std::max<std::int64_t>(retention / 24, 300'000);
}

class versioned_supplier final : public versioned_bytes_store_supplier {
public:
    versioned_supplier(std::string name, std::int64_t retention, std::int64_t segment_interval, bool persistent)
        : name_(std::move(name)), retention_(retention), segment_interval_(segment_interval), persistent_(persistent) {}
    const std::string& name() const override { return name_; }
    std::unique_ptr<bytes_versioned_key_value_store> get() const override {
        std::unique_ptr<bytes_key_value_store> inner;
        if (persistent_) inner = std::make_unique<state::rocksdb_key_value_store>(name_);
        else inner = std::make_unique<state::in_memory_key_value_store>(name_);
        return std::make_unique<state::versioned_history_store>(std::move(inner), retention_);
    }
    std::int64_t history_retention() const override { return retention_; }
    std::int64_t segment_interval() const override { return segment_interval_; }

private:
    std::string name_;
    std::int64_t retention_;
    std::int64_t segment_interval_;
    bool persistent_;
};

std::int64_t checked_retention(std::chrono::milliseconds r) {
    if (r.count() < 0) throw std::invalid_argument("historyRetention cannot be negative");
    return r.count();
}

}  // namespace

std::shared_ptr<const versioned_bytes_store_supplier> persistent_versioned_key_value_store(
    std::string name, std::chrono::milliseconds history_retention) {
    const std::int64_t r = checked_retention(history_retention);
    return std::make_shared<versioned_supplier>(std::move(name), r, default_segment_interval(r), true);
}

std::shared_ptr<const versioned_bytes_store_supplier> persistent_versioned_key_value_store(
    std::string name, std::chrono::milliseconds history_retention, std::chrono::milliseconds segment_interval) {
    const std::int64_t r = checked_retention(history_retention);
    if (segment_interval.count() < 1) throw std::invalid_argument("segmentInterval cannot be zero or negative");
    return std::make_shared<versioned_supplier>(std::move(name), r, segment_interval.count(), true);
}

std::shared_ptr<const versioned_bytes_store_supplier> in_memory_versioned_key_value_store(
    std::string name, std::chrono::milliseconds history_retention) {
    const std::int64_t r = checked_retention(history_retention);
    return std::make_shared<versioned_supplier>(std::move(name), r, default_segment_interval(r), false);
}

}  // namespace kstreams::stores
