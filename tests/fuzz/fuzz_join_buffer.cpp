// A stream-table join's grace buffer (KIP-923, Kafka's time-ordered buffer): its keys
// (timestamp ‖ key ‖ sequence number) and values (record context with headers, then the value).
// Decode or the clear error; what decodes encodes to bytes that decode to the same entry.
#include <optional>

#include <kstreams/dsl/detail/join_buffer.hpp>

#include "tests/fuzz/fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace kstreams::dsl_detail;
    const std::string_view in = fuzz::view(data, size);

    std::optional<std::int64_t> time;
    if (fuzz::decodes([&] { time = join_buffer_key_time(in); })) {
        const std::string_view key = join_buffer_key_bytes(in);  // must not throw: the same bound
        FUZZ_CHECK(join_buffer_key(*time, key, 7).substr(0, in.size() - 4) == in.substr(0, in.size() - 4));
    }

    std::optional<join_buffer_entry> first;
    if (!fuzz::decodes([&] { first = read_join_buffer_value(in); })) return 0;
    const std::string bytes = join_buffer_value(first->value, first->timestamp, nullptr, first->hdrs);
    const join_buffer_entry second = read_join_buffer_value(bytes);  // must not throw
    FUZZ_CHECK(second.timestamp == first->timestamp);
    FUZZ_CHECK(second.value == first->value);
    FUZZ_CHECK(second.hdrs == first->hdrs);
    FUZZ_CHECK(join_buffer_value(second.value, second.timestamp, nullptr, second.hdrs) == bytes);
    return 0;
}
