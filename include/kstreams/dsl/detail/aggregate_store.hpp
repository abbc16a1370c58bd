// The store of an aggregation: timestamped, or versioned when `materialized` has a versioned store
// supplier (Kafka 4.4 allows it: its aggregation processors read and write through
// KeyValueStoreWrapper). An aggregation reads the latest row and writes the new one at the row's
// timestamp, the largest aggregated so far, so every write is the key's latest version; a null
// result deletes the key at that timestamp. Versioned stores are never cached: every update is
// forwarded, but one older than the store's history retention is not stored (the store counts it
// as dropped) and not forwarded. The processors see either kind as a timestamped store.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <kstreams/detail/node.hpp>
#include <kstreams/detail/task_context.hpp>
#include <kstreams/dsl/ops/store_access.hpp>
#include <kstreams/error.hpp>
#include <kstreams/state/timestamped_key_value_store.hpp>
#include <kstreams/state/versioned_key_value_store.hpp>

namespace kstreams::dsl_detail {

/// A versioned store as an aggregation's timestamped one: key reads and writes only.
template <class K, class V>
class versioned_as_timestamped final : public timestamped_key_value_store<K, V> {
public:
    using row = value_and_timestamp<V>;

    explicit versioned_as_timestamped(versioned_key_value_store<K, V>& inner, const kstreams::detail::task_context& ctx)
        : inner_(inner), ctx_(ctx) {}

    const std::string& name() const override { return inner_.name(); }
    void init(store_context&) override {}  // the task initializes the store itself
    void flush() override {}
    void close() override {}
    bool persistent() const override { return inner_.persistent(); }
    bool is_open() const override { return inner_.is_open(); }

    std::optional<row> get(const K& key) override {
        auto r = inner_.get(key);
        if (!r) return std::nullopt;
        return row{std::move(r->value), r->timestamp};
    }
    void put(const K& key, const row& value) override {
        dropped_ = inner_.put(key, value.value, value.timestamp) == put_not_put;
    }
    std::optional<row> put_if_absent(const K& key, const row& value) override {
        if (auto old = get(key)) return old;
        put(key, value);
        return std::nullopt;
    }
    void put_all(const std::vector<key_value<K, row>>& entries) override {
        for (const auto& e : entries) put(e.key, e.value);
    }
    std::optional<row> remove(const K& key) override {
        auto old = get(key);
        erase(key);
        return old;
    }
    /// A delete at the latest row's timestamp (the aggregation's), else the record's.
    void erase(const K& key) override {
        auto old = inner_.get(key);
        const std::int64_t ts = old ? std::max(old->timestamp, ctx_.current_record().timestamp) : ctx_.current_record().timestamp;
        dropped_ = inner_.erase(key, ts) == put_not_put;
    }
    /// The last put or delete was older than the store's history retention: not stored (the
    /// store counted it as dropped), so the aggregation forwards nothing, as Kafka's.
    bool last_write_dropped() const { return dropped_; }
    key_value_iterator<K, row> range(const std::optional<K>&, const std::optional<K>&) override { throw refused("range"); }
    key_value_iterator<K, row> reverse_range(const std::optional<K>&, const std::optional<K>&) override {
        throw refused("reverse_range");
    }
    key_value_iterator<K, row> all() override { throw refused("all"); }
    key_value_iterator<K, row> reverse_all() override { throw refused("reverse_all"); }
    std::uint64_t approximate_num_entries() override { throw refused("approximate_num_entries"); }

protected:
    key_value_iterator<K, row> prefix_scan_bytes(std::string_view) override { throw refused("prefix_scan"); }

private:
    streams_error refused(const char* what) const {
        return streams_error("store " + inner_.name() + " is a versioned store: " + what +
                             " is not supported (a versioned store answers key queries only)");
    }
    versioned_key_value_store<K, V>& inner_;
    const kstreams::detail::task_context& ctx_;
    bool dropped_ = false;
};

template <class K, class V>
bool last_write_dropped(const std::unique_ptr<timestamped_key_value_store<K, V>>& versioned_view) {
    return versioned_view && static_cast<const versioned_as_timestamped<K, V>&>(*versioned_view).last_write_dropped();
}

/// The store of aggregation `self`: its timestamped store, or its versioned store seen through a
/// view kept in `view`.
template <class K, class V>
timestamped_key_value_store<K, V>& aggregate_store(kstreams::detail::task_context& ctx, const std::string& store,
                                                   const kstreams::detail::node& self,
                                                   std::unique_ptr<timestamped_key_value_store<K, V>>& view) {
    if (auto* versioned = dynamic_cast<versioned_key_value_store<K, V>*>(&ctx.store(store, self))) {
        view = std::make_unique<versioned_as_timestamped<K, V>>(*versioned, ctx);
        return *view;
    }
    return timestamped_store<K, V>(ctx, store, self);
}

}  // namespace kstreams::dsl_detail
