// A versioned store's per-key history (lib/state/versioned_history.hpp). Decode or the clear
// error; a decoded history is strictly ascending in time and encodes to the same bytes.
#include <optional>

#include "lib/state/versioned_history.hpp"
#include "tests/fuzz/fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace kstreams::state;
    const std::string_view in = fuzz::view(data, size);
    std::optional<std::vector<version>> h;
    if (!fuzz::decodes([&] { h = decode_history(in); })) return 0;
    for (std::size_t i = 1; i < h->size(); ++i) FUZZ_CHECK((*h)[i - 1].timestamp < (*h)[i].timestamp);
    FUZZ_CHECK(encode_history(*h) == in);  // one encoding per history: nothing was skipped
    return 0;
}
