// A byte-store iterator over a copy of the matching rows, so that writes during a scan are safe
// (Kafka Streams' in-memory stores iterate a copy of the key set as well).
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <kstreams/state/bytes_store.hpp>

namespace kstreams::state {

class snapshot_iterator final : public bytes_iterator {
public:
    explicit snapshot_iterator(std::vector<std::pair<std::string, std::string>> rows) : rows_(std::move(rows)) {}
    bool valid() const override { return pos_ < rows_.size(); }
    void next() override { ++pos_; }
    std::string_view key() const override { return rows_[pos_].first; }
    std::string_view value() const override { return rows_[pos_].second; }

private:
    std::vector<std::pair<std::string, std::string>> rows_;
    std::size_t pos_ = 0;
};

}  // namespace kstreams::state
