#include "lib/state/logging_segmented_stores.hpp"

#include <kstreams/error.hpp>

#include "lib/state/segmented_session_store.hpp"
#include "lib/state/segmented_window_store.hpp"

namespace kstreams::state {

void logging_window_store::init(store_context& ctx) {
    ctx_ = &ctx;
    if (log_headers_) with_headers_ = dynamic_cast<changelog_with_headers*>(&ctx);
    if (!timestamped_) {
        inner_->init(ctx);
        return;
    }
    restore_ctx_ = std::make_unique<timestamped_restore_context>(ctx);
    inner_->init(*restore_ctx_);
}

void logging_window_store::put(std::string_view key, std::optional<std::string_view> value,
                               std::int64_t window_start) {
    inner_->put(key, value, window_start);
    if (retain_duplicates()) {
        if (!value) return;  // ignored by the store as well
        seqnum_ = seqnum_ == INT32_MAX ? 0 : seqnum_ + 1;  // in step with the store's sequence
    }
    const std::string k = segmented_window_store::store_key(key, window_start, retain_duplicates() ? seqnum_ : 0);
    std::int64_t timestamp = 0;
    if (timestamped_ && value) {
        if (value->size() < 8)
            throw streams_error("store " + name() + ": a timestamped value needs at least 8 bytes, got " +
                                std::to_string(value->size()));
        timestamp = detail::get_big_endian<std::int64_t>(*value);
        value = value->substr(8);
    } else {
        timestamp = ctx_->record_timestamp();
    }
    if (with_headers_) {
        static const headers none;
        const headers* hdrs = ctx_->current_record_context().hdrs;
        with_headers_->log_change(name(), k, value, timestamp, hdrs ? *hdrs : none);
        return;
    }
    ctx_->log_change(name(), k, value, timestamp);
}

void logging_session_store::put(std::string_view key, kstreams::window session,
                                std::optional<std::string_view> value) {
    inner_->put(key, session, value);
    ctx_->log_change(name(), segmented_session_store::session_key(key, session.start, session.end), value,
                     ctx_->record_timestamp());
}

}  // namespace kstreams::state
