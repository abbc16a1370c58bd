// The layers of a versioned store: metered(logging(store)), as Kafka's
// MeteredVersionedKeyValueStore over ChangeLoggingVersionedKeyValueBytesStore. Every put and
// delete goes to the changelog as a record timestamped with the put's timestamp (a delete as a
// tombstone), whatever the store made of it, as Kafka's does.
#include <kstreams/state/versioned_key_value_store.hpp>

#include <limits>

#include "lib/state/forwarding_versioned_store.hpp"
#include "lib/state/store_counters.hpp"

namespace kstreams::state {
namespace {

class logging_versioned_store final : public forwarding_versioned_store {
public:
    using forwarding_versioned_store::forwarding_versioned_store;
    void init(store_context& ctx) override {
        ctx_ = &ctx;
        inner_->init(ctx);
    }
    std::int64_t put(std::string_view key, std::optional<std::string_view> value, std::int64_t timestamp) override {
        const std::int64_t r = inner_->put(key, value, timestamp);
        ctx_->log_change(name(), key, value, timestamp);
        return r;
    }
    std::optional<versioned_record<std::string>> remove(std::string_view key, std::int64_t timestamp) override {
        auto old = inner_->remove(key, timestamp);
        ctx_->log_change(name(), key, std::nullopt, timestamp);
        return old;
    }

private:
    store_context* ctx_ = nullptr;
};

class metered_versioned_store final : public forwarding_versioned_store {
public:
    using forwarding_versioned_store::forwarding_versioned_store;
    void init(store_context& ctx) override {
        inner_->init(ctx);
        // Kafka's versioned store supplier's metrics scope (the in-memory one is ours).
        counters_.bind(ctx, name(), inner_->persistent() ? "rocksdb-versioned" : "in-memory-versioned");
    }
    void flush() override {
        const auto op = counters_.op(store_op_kind::flush);
        inner_->flush();
    }
    std::int64_t put(std::string_view key, std::optional<std::string_view> value, std::int64_t timestamp) override {
        const auto op = counters_.op(store_op_kind::put);
        return inner_->put(key, value, timestamp);
    }
    std::optional<versioned_record<std::string>> get(std::string_view key) override {
        const auto op = counters_.op(store_op_kind::get);
        return inner_->get(key);
    }
    std::optional<versioned_record<std::string>> get(std::string_view key, std::int64_t as_of) override {
        const auto op = counters_.op(store_op_kind::get);
        return inner_->get(key, as_of);
    }
    std::optional<std::vector<versioned_record<std::string>>> versions(std::string_view key, std::int64_t from,
                                                                       std::int64_t to) override {
        const auto op = counters_.op(store_op_kind::range);
        return inner_->versions(key, from, to);
    }
    std::optional<versioned_record<std::string>> remove(std::string_view key, std::int64_t timestamp) override {
        const auto op = counters_.op(store_op_kind::remove);
        return inner_->remove(key, timestamp);
    }

private:
    store_counters counters_;
};

}  // namespace
}  // namespace kstreams::state

namespace kstreams::detail {

std::unique_ptr<bytes_versioned_key_value_store> wrap_versioned_layers(std::unique_ptr<bytes_versioned_key_value_store> inner,
                                                                       const logging_config& logging) {
    if (logging.enabled) inner = std::make_unique<state::logging_versioned_store>(std::move(inner));
    return std::make_unique<state::metered_versioned_store>(std::move(inner));
}

std::map<std::string, std::string> versioned_changelog_config(std::int64_t history_retention,
                                                              std::map<std::string, std::string> user) {
    // cleanup.policy=compact is the changelogs' default when the topics are planned, under the
    // app's topic.* configs (Kafka's VersionedChangelogTopicConfig); the lag is history retention
    // + 1 day, fixed (Kafka does not read windowstore.changelog.additional.retention.ms for it).
    std::map<std::string, std::string> c = std::move(user);
    if (!c.contains("min.compaction.lag.ms")) {
        constexpr std::int64_t day = 86'400'000;
        const std::int64_t lag = history_retention > std::numeric_limits<std::int64_t>::max() - day
                                     ? std::numeric_limits<std::int64_t>::max()
                                     : history_retention + day;
        c["min.compaction.lag.ms"] = std::to_string(lag);
    }
    return c;
}

}  // namespace kstreams::detail
