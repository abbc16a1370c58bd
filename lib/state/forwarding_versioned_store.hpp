// A versioned store layer that passes every call to the store beneath: the base of the metered and
// logging versioned layers, which override only what they change.
#pragma once

#include <kstreams/state/versioned_key_value_store.hpp>
#include <kstreams/state/wrapped_store.hpp>

namespace kstreams::state {

class forwarding_versioned_store : public wrapped_store<bytes_versioned_key_value_store> {
public:
    using wrapped_store::wrapped_store;

    std::int64_t put(std::string_view key, std::optional<std::string_view> value, std::int64_t timestamp) override {
        return inner_->put(key, value, timestamp);
    }
    std::optional<versioned_record<std::string>> get(std::string_view key) override { return inner_->get(key); }
    std::optional<versioned_record<std::string>> get(std::string_view key, std::int64_t as_of) override {
        return inner_->get(key, as_of);
    }
    std::optional<versioned_record<std::string>> remove(std::string_view key, std::int64_t timestamp) override {
        return inner_->remove(key, timestamp);
    }
    std::int64_t history_retention() const override { return inner_->history_retention(); }
    std::optional<std::vector<versioned_record<std::string>>> versions(std::string_view key, std::int64_t from,
                                                                       std::int64_t to) override {
        return inner_->versions(key, from, to);
    }
};

}  // namespace kstreams::state
