// Window and session stores restored from a changelog someone else wrote: arbitrary changelog
// records (key ‖ start ‖ seqnum window keys, key ‖ end ‖ start session keys, of any length and
// time, tombstones) go into the stores' restore callbacks; then every read (by key, by range, all,
// forward and backward) must run without a crash or a sanitizer report. The input is a list of records: {1 byte key length}{key}{1 byte:
// value length, 255 = tombstone}{value}.
#include <vector>

#include <kstreams/serde.hpp>

#include "lib/state/in_memory_key_value_store.hpp"
#include "lib/state/segmented_session_store.hpp"
#include "lib/state/segmented_window_store.hpp"
#include "tests/fuzz/fuzz.hpp"

namespace {

using namespace kstreams;
using namespace kstreams::state;

class context final : public store_context {
public:
    std::string_view application_id() const override { return "fuzz"; }
    kstreams::task_id task_id() const override { return {0, 0}; }
    std::filesystem::path task_directory() const override { return {}; }
    void register_store(state_store&, restore_callback r) override { restore = std::move(r); }
    void log_change(std::string_view, std::string_view, std::optional<std::string_view>, std::int64_t) override {}
    record_context current_record_context() const override { return {0, nullptr}; }
    restore_callback restore;
};

std::vector<restore_record> parse(std::string_view in) {
    std::vector<restore_record> out;
    while (in.size() >= 2) {
        const std::size_t klen = std::min<std::size_t>(static_cast<unsigned char>(in[0]), in.size() - 1);
        const std::string_view key = in.substr(1, klen);
        in.remove_prefix(1 + klen);
        if (in.empty()) break;
        const auto vlen_byte = static_cast<unsigned char>(in[0]);
        in.remove_prefix(1);
        std::optional<std::string_view> value;
        if (vlen_byte != 255) {
            value = in.substr(0, std::min<std::size_t>(vlen_byte, in.size()));
            in.remove_prefix(value->size());
        }
        out.push_back({key, value, 0});
    }
    return out;
}

/// Reads everything through `it`.
void drain(bytes_window_iterator& it) {
    for (; it.valid(); it.next()) {
        (void)it.key();
        (void)it.value();
        (void)it.window();
    }
}

void windows(const std::vector<restore_record>& records, std::int64_t size, bool duplicates, bool time_ordered) {
    context ctx;
    segmented_window_store store("w", std::make_unique<in_memory_key_value_store>("w"), 3'600'000, size, duplicates,
                                time_ordered);
    store.init(ctx);
    ctx.restore(records);
    for (const auto& r : records) {
        if (r.key.size() < 12) continue;
        const std::string_view key = r.key.substr(0, r.key.size() - 12);
        const auto start = detail::get_big_endian<std::int64_t>(r.key.substr(r.key.size() - 12));
        (void)store.fetch(key, start);
        for (bool backward : {false, true}) {
            auto by_key = store.fetch(key, INT64_MIN, INT64_MAX, backward);
            drain(*by_key);
            auto range = store.fetch_range(std::string(key), std::string(key) + "\xff", start, INT64_MAX, backward);
            drain(*range);
        }
    }
    for (bool backward : {false, true}) {
        auto all = store.fetch_range(std::nullopt, std::nullopt, INT64_MIN, INT64_MAX, backward);
        drain(*all);
    }
}

void sessions(const std::vector<restore_record>& records, bool time_ordered) {
    context ctx;
    segmented_session_store store("s", std::make_unique<in_memory_key_value_store>("s"), 3'600'000, time_ordered);
    store.init(ctx);
    ctx.restore(records);
    for (const auto& r : records) {
        if (r.key.size() < 16) continue;
        const std::string key(r.key.substr(0, r.key.size() - 16));
        const auto end = detail::get_big_endian<std::int64_t>(r.key.substr(r.key.size() - 16));
        const auto start = detail::get_big_endian<std::int64_t>(r.key.substr(r.key.size() - 8));
        (void)store.fetch_session(key, start, end);
        for (bool backward : {false, true}) {
            auto by_key = store.find_sessions(key, key, INT64_MIN, INT64_MAX, backward);
            drain(*by_key);
            auto bounded = store.find_sessions(key, std::nullopt, end, start, backward);
            drain(*bounded);
        }
    }
    for (bool backward : {false, true}) {
        auto all = store.find_sessions(std::nullopt, std::nullopt, INT64_MIN, INT64_MAX, backward);
        drain(*all);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::vector<restore_record> records = parse(fuzz::view(data, size));
    windows(records, 60'000, false, false);
    windows(records, 1, true, true);
    sessions(records, false);
    sessions(records, true);
    return 0;
}
