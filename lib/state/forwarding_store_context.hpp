// A store_context that passes everything to another one; layers override what they change.
#pragma once

#include <kstreams/state/state_store.hpp>

#include "lib/state/task_store_hooks.hpp"

namespace kstreams::state {

class forwarding_store_context : public store_context, public changelog_with_headers, public record_metadata_hooks {
public:
    explicit forwarding_store_context(store_context& inner)
        : inner_(&inner), with_headers_(dynamic_cast<changelog_with_headers*>(&inner)),
          hooks_(dynamic_cast<record_metadata_hooks*>(&inner)) {}

    std::string_view application_id() const override { return inner_->application_id(); }
    kstreams::task_id task_id() const override { return inner_->task_id(); }
    std::filesystem::path task_directory() const override { return inner_->task_directory(); }
    void register_store(state_store& store, restore_callback restore) override {
        inner_->register_store(store, std::move(restore));
    }
    void log_change(std::string_view store_name, std::string_view key, std::optional<std::string_view> value,
                    std::int64_t timestamp) override {
        inner_->log_change(store_name, key, value, timestamp);
    }
    void log_change(std::string_view store_name, std::string_view key, std::optional<std::string_view> value,
                    std::int64_t timestamp, const headers& hdrs) override {
        if (with_headers_) with_headers_->log_change(store_name, key, value, timestamp, hdrs);
        else inner_->log_change(store_name, key, value, timestamp);
    }
    stored_metadata current_stored_metadata() override { return hooks_ ? hooks_->current_stored_metadata() : stored_metadata{}; }
    void set_stored_metadata(const stored_metadata& m) override {
        if (hooks_) hooks_->set_stored_metadata(m);
    }
    record_context current_record_context() const override { return inner_->current_record_context(); }
    void set_current_record_context(record_context rc) override { inner_->set_current_record_context(rc); }
    detail::store_resources* resources() override { return inner_->resources(); }
    void discard_checkpoint(std::string_view store_name) override { inner_->discard_checkpoint(store_name); }

protected:
    store_context* inner_;
    changelog_with_headers* with_headers_;
    record_metadata_hooks* hooks_;
};

}  // namespace kstreams::state
