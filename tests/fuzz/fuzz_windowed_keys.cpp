// Kafka's windowed key formats (windowed_serdes): time-windowed keys (key bytes ‖ 8-byte start)
// and session keys (key bytes ‖ 8-byte end ‖ 8-byte start), with string and fixed-size inner
// keys and several window sizes: decode or the clear error; what decodes encodes back to the same
// bytes, and a time window's end is its start + size, clamped to the largest time.
#include <optional>

#include <kstreams/dsl/windowed_serdes.hpp>

#include "tests/fuzz/fuzz.hpp"

namespace {

template <class K>
void time_windowed(std::string_view in, std::int64_t size) {
    const kstreams::time_windowed_serde<K> s{{}, size};
    std::optional<kstreams::windowed<K>> w;
    if (!fuzz::decodes([&] { w = s.deserialize(in); })) return;
    FUZZ_CHECK(fuzz::encode(s, *w) == in);
    FUZZ_CHECK(w->window.end >= w->window.start);
    FUZZ_CHECK(w->window.end == INT64_MAX || w->window.end - w->window.start == size);
}

template <class K>
void session_windowed(std::string_view in) {
    const kstreams::session_windowed_serde<K> s;
    std::optional<kstreams::windowed<K>> w;
    if (fuzz::decodes([&] { w = s.deserialize(in); })) FUZZ_CHECK(fuzz::encode(s, *w) == in);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view in = fuzz::view(data, size);
    for (const std::int64_t window_size : {INT64_MAX, std::int64_t{0}, std::int64_t{1}, std::int64_t{60'000}}) {
        time_windowed<std::string>(in, window_size);
        time_windowed<std::int64_t>(in, window_size);
    }
    session_windowed<std::string>(in);
    session_windowed<std::int32_t>(in);
    return 0;
}
