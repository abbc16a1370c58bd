// Kafka's KeyValueToTimestampedKeyValueByteStoreAdapter: see plain_value_adapter.hpp.
#include "lib/state/plain_value_adapter.hpp"

#include <string>
#include <utility>
#include <vector>

#include <kstreams/serde.hpp>

#include "lib/state/forwarding_key_value_store.hpp"
#include "lib/state/forwarding_store_context.hpp"
#include "lib/state/forwarding_window_stores.hpp"
#include "lib/state/rocksdb_key_value_store.hpp"
#include "lib/state/segmented_window_store.hpp"

namespace kstreams::state {

namespace {

constexpr std::size_t timestamp_size = 8;

/// The plain value of `8-byte timestamp ‖ value`.
std::string_view plain(std::string_view timestamped) {
    return timestamped.size() >= timestamp_size ? timestamped.substr(timestamp_size) : std::string_view{};
}

/// `-1 ‖ value`: a row read back without its timestamp.
std::string with_no_timestamp(std::string_view value) {
    std::string out;
    out.reserve(timestamp_size + value.size());
    detail::put_big_endian(std::int64_t{-1}, out);
    out.append(value);
    return out;
}

std::optional<std::string> row_with_no_timestamp(const std::optional<std::string>& value) {
    if (!value) return std::nullopt;
    return with_no_timestamp(std::string_view(*value));
}

/// A scan whose values are read back as `-1 ‖ value`.
template <class Base>
class padding_iterator : public Base {
public:
    explicit padding_iterator(std::unique_ptr<Base> inner) : inner_(std::move(inner)) { load(); }
    bool valid() const override { return inner_->valid(); }
    void next() override {
        inner_->next();
        load();
    }
    std::string_view key() const override { return inner_->key(); }
    std::string_view value() const override { return value_; }

protected:
    std::unique_ptr<Base> inner_;

private:
    void load() {
        if (inner_->valid()) value_ = with_no_timestamp(inner_->value());
    }
    std::string value_;
};

using adapted_iterator = padding_iterator<bytes_iterator>;

class adapted_window_iterator final : public padding_iterator<bytes_window_iterator> {
public:
    using padding_iterator::padding_iterator;
    kstreams::window window() const override { return inner_->window(); }
};

/// Restored changelog records arrive timestamped (timestamped_restore_context): stored plain.
class plain_restore_context final : public forwarding_store_context {
public:
    using forwarding_store_context::forwarding_store_context;
    void register_store(state_store& store, restore_callback restore) override {
        inner_->register_store(store, [restore = std::move(restore)](std::span<const restore_record> batch) {
            std::vector<restore_record> converted;
            converted.reserve(batch.size());
            for (const auto& r : batch)
                converted.push_back({r.key, r.value ? std::optional<std::string_view>(plain(*r.value)) : std::nullopt,
                                     r.timestamp});
            restore(converted);
        });
    }
};

/// Restored changelog records arrive timestamped: the adapters store them plain.
template <class Forwarding>
class plain_restoring : public Forwarding {
public:
    using Forwarding::Forwarding;
    void init(store_context& ctx) override {
        restore_ctx_ = std::make_unique<plain_restore_context>(ctx);
        this->inner_->init(*restore_ctx_);
    }

private:
    std::unique_ptr<plain_restore_context> restore_ctx_;
};

class plain_value_adapter final : public plain_restoring<forwarding_key_value_store> {
public:
    using plain_restoring::plain_restoring;

    std::optional<std::string> get(std::string_view key) override { return row_with_no_timestamp(inner_->get(key)); }
    bool get_into(std::string_view key, std::string& out) override {
        if (!inner_->get_into(key, buffer_)) return false;
        out = with_no_timestamp(std::string_view(buffer_));
        return true;
    }
    void put(std::string_view key, std::string_view value) override { inner_->put(key, plain(value)); }
    std::optional<std::string> put_if_absent(std::string_view key, std::string_view value) override {
        return row_with_no_timestamp(inner_->put_if_absent(key, plain(value)));
    }
    void put_all(const std::vector<std::pair<std::string, std::string>>& entries) override {
        std::vector<std::pair<std::string, std::string>> plain_entries;
        plain_entries.reserve(entries.size());
        for (const auto& [k, v] : entries) plain_entries.emplace_back(k, std::string(plain(v)));
        inner_->put_all(plain_entries);
    }
    std::optional<std::string> remove(std::string_view key) override { return row_with_no_timestamp(inner_->remove(key)); }
    std::unique_ptr<bytes_iterator> range(const key_range& r, bool reverse) override {
        return std::make_unique<adapted_iterator>(inner_->range(r, reverse));
    }
    std::unique_ptr<bytes_iterator> prefix_scan(std::string_view prefix) override {
        return std::make_unique<adapted_iterator>(inner_->prefix_scan(prefix));
    }

private:
    std::string buffer_;
};

class plain_window_value_adapter final : public plain_restoring<forwarding_window_store> {
public:
    using plain_restoring::plain_restoring;

    void put(std::string_view key, std::optional<std::string_view> value, std::int64_t window_start) override {
        inner_->put(key, value ? std::optional<std::string_view>(plain(*value)) : std::nullopt, window_start);
    }
    std::optional<std::string> fetch(std::string_view key, std::int64_t window_start) override {
        return row_with_no_timestamp(inner_->fetch(key, window_start));
    }
    std::unique_ptr<bytes_window_iterator> fetch(std::string_view key, std::int64_t time_from, std::int64_t time_to,
                                                 bool backward) override {
        return std::make_unique<adapted_window_iterator>(inner_->fetch(key, time_from, time_to, backward));
    }
    std::unique_ptr<bytes_window_iterator> fetch_range(const std::optional<std::string>& key_from,
                                                       const std::optional<std::string>& key_to, std::int64_t time_from,
                                                       std::int64_t time_to, bool backward) override {
        return std::make_unique<adapted_window_iterator>(inner_->fetch_range(key_from, key_to, time_from, time_to, backward));
    }
};

}  // namespace

std::unique_ptr<bytes_window_store> adapt_plain_values(std::unique_ptr<bytes_window_store> inner) {
    const auto* segmented = dynamic_cast<const segmented_window_store*>(inner.get());
    if (!segmented || !segmented->plain_values()) return inner;
    return std::make_unique<plain_window_value_adapter>(std::move(inner));
}

std::unique_ptr<bytes_key_value_store> adapt_plain_values(std::unique_ptr<bytes_key_value_store> inner) {
    const auto* rocks = dynamic_cast<const rocksdb_key_value_store*>(inner.get());
    if (!rocks || !rocks->plain_values()) return inner;
    return std::make_unique<plain_value_adapter>(std::move(inner));
}

}  // namespace kstreams::state
