#include "lib/state/logging_key_value_store.hpp"

#include <kstreams/error.hpp>
#include <kstreams/serde.hpp>

#include "lib/state/lru_key_value_store.hpp"

namespace kstreams::state {

logging_key_value_store::logging_key_value_store(std::unique_ptr<bytes_key_value_store> inner, bool timestamped, bool send,
                                                 bool log_headers, bool unstamped)
    : forwarding_key_value_store(std::move(inner)),
      timestamped_(timestamped),
      send_(send),
      log_headers_(log_headers),
      unstamped_(unstamped) {}

void logging_key_value_store::init(store_context& ctx) {
    ctx_ = &ctx;
    if (log_headers_) with_headers_ = dynamic_cast<changelog_with_headers*>(&ctx);
    // Kafka's ChangeLoggingKeyValueBytesStore: an LRU map's evictions are deletes in the changelog,
    // but only when it wraps the map directly. A store of timestamped values (the DSL's, or
    // timestampedKeyValueStoreBuilder) has the map behind Kafka's in-memory timestamped marker, so
    // its evictions leave the changelog alone.
    if (auto* lru = dynamic_cast<lru_key_value_store*>(inner_.get()); lru && !timestamped_)
        lru->set_eviction_listener([this](std::string_view key, std::string_view) { log(key, std::nullopt); });
    if (!timestamped_) {
        inner_->init(ctx);
        return;
    }
    restore_ctx_ = std::make_unique<timestamped_restore_context>(ctx);
    inner_->init(*restore_ctx_);
}

void logging_key_value_store::log(std::string_view key, std::optional<std::string_view> value) {
    if (!send_) return;
    std::int64_t timestamp = 0;
    if (unstamped_) {
        timestamp = no_timestamp;
    } else if (timestamped_ && value) {
        if (value->size() < 8)
            throw streams_error("store " + name() + ": a timestamped value needs at least 8 bytes, got " +
                                std::to_string(value->size()));
        timestamp = detail::get_big_endian<std::int64_t>(*value);
        value = value->substr(8);
    } else {
        timestamp = ctx_->record_timestamp();
    }
    if (with_headers_) {
        // The writing record's headers, a delete's too (Kafka logs the record context's).
        static const headers none;
        const headers* hdrs = ctx_->current_record_context().hdrs;
        with_headers_->log_change(name(), key, value, timestamp, hdrs ? *hdrs : none);
        return;
    }
    ctx_->log_change(name(), key, value, timestamp);
}

void logging_key_value_store::put(std::string_view key, std::string_view value) {
    inner_->put(key, value);
    log(key, value);
}

std::optional<std::string> logging_key_value_store::put_if_absent(std::string_view key, std::string_view value) {
    auto previous = inner_->put_if_absent(key, value);
    if (!previous) log(key, value);
    return previous;
}

void logging_key_value_store::put_all(const std::vector<std::pair<std::string, std::string>>& entries) {
    inner_->put_all(entries);
    for (const auto& [k, v] : entries) log(k, v);
}

std::optional<std::string> logging_key_value_store::remove(std::string_view key) {
    auto old = inner_->remove(key);
    log(key, std::nullopt);
    return old;
}

void logging_key_value_store::erase(std::string_view key) {
    inner_->erase(key);
    log(key, std::nullopt);
}

}  // namespace kstreams::state
