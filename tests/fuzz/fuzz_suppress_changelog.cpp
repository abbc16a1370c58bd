// The suppress buffer's changelog value (Kafka's version 3): record context with headers, prior,
// old and new values, buffer time. Decode or the clear error; what decodes encodes to bytes that
// decode to the same entry and encode the same again. The same bytes as every older version Kafka's
// buffer restores (the first byte picks the "v" header): decoded or the clear error.
#include <optional>

#include "lib/state/suppress_changelog.hpp"
#include "tests/fuzz/fuzz.hpp"

namespace {

using kstreams::dsl_detail::suppress_buffer_value;

bool same(const suppress_buffer_value& a, const suppress_buffer_value& b) {
    return a.prior == b.prior && a.old_value == b.old_value && a.new_value == b.new_value &&
           a.context.timestamp == b.context.timestamp && a.context.offset == b.context.offset &&
           a.context.topic == b.context.topic && a.context.partition == b.context.partition &&
           a.context.hdrs == b.context.hdrs;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace kstreams::dsl_detail;
    if (size > 0) {
        kstreams::headers version;
        if (const int v = data[0] % 5; v > 0) version.add("v", std::string(1, static_cast<char>(v)));
        fuzz::decodes([&] { decode_suppress_changelog_record(fuzz::view(data + 1, size - 1), version, {}, std::nullopt); });
    }
    std::optional<std::pair<std::int64_t, suppress_buffer_value>> first;
    if (!fuzz::decodes([&] { first = decode_suppress_changelog_value(fuzz::view(data, size)); })) return 0;
    const std::string bytes = encode_suppress_changelog_value(first->second, first->first);
    const auto second = decode_suppress_changelog_value(bytes);  // must not throw
    FUZZ_CHECK(second.first == first->first);
    FUZZ_CHECK(same(second.second, first->second));
    FUZZ_CHECK(encode_suppress_changelog_value(second.second, second.first) == bytes);
    return 0;
}
