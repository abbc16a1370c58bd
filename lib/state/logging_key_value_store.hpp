// Sends every change of a key-value store to its changelog topic (Kafka's
// ChangeLoggingKeyValueBytesStore), in the task's partition. For timestamped stores the changelog
// holds the plain value with the stored timestamp as the record's timestamp, as Kafka's
// ChangeLoggingTimestampedKeyValueBytesStore; restoring puts the timestamp back in front. Without
// `send` it only does the latter: a timestamped store whose changelog is a table's source topic
// (topology.optimization reuse.ktable.source.topics) restores from it and logs nothing. With
// `log_headers` its changelog records carry the headers of the record that wrote them (Kafka 4.4's
// ChangeLoggingTimestampedKeyValueBytesStoreWithHeaders, the foreign-key subscription store's).
// With `unstamped` its changelog records carry no timestamp (the producer stamps them), as the
// records of Kafka's RocksDBTimeOrderedKeyValueBuffer (the stream-table join's grace buffer).
#pragma once

#include <memory>

#include <kstreams/state/bytes_store.hpp>

#include "lib/state/forwarding_key_value_store.hpp"
#include "lib/state/task_store_hooks.hpp"
#include "lib/state/timestamped_restore_context.hpp"

namespace kstreams::state {

class logging_key_value_store final : public forwarding_key_value_store {
public:
    logging_key_value_store(std::unique_ptr<bytes_key_value_store> inner, bool timestamped, bool send = true,
                            bool log_headers = false, bool unstamped = false);

    void init(store_context& ctx) override;
    void put(std::string_view key, std::string_view value) override;
    std::optional<std::string> put_if_absent(std::string_view key, std::string_view value) override;
    void put_all(const std::vector<std::pair<std::string, std::string>>& entries) override;
    std::optional<std::string> remove(std::string_view key) override;
    void erase(std::string_view key) override;

private:
    void log(std::string_view key, std::optional<std::string_view> value);

    bool timestamped_;
    bool send_;
    bool log_headers_;
    bool unstamped_;
    store_context* ctx_ = nullptr;
    changelog_with_headers* with_headers_ = nullptr;  ///< the task, when log_headers_
    std::unique_ptr<timestamped_restore_context> restore_ctx_;
};

}  // namespace kstreams::state
