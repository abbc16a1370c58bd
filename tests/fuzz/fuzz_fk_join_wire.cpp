// A foreign-key join's wire formats (KIP-213): the subscription (version, hash, instruction,
// primary key, primary partition), the response (version, hash, foreign value) and the
// subscription store key ({foreign key length}{foreign key}{primary key}). Decode or the clear
// error; what decodes encodes back to the same bytes.
#include <optional>

#include <kstreams/dsl/detail/fk_join_wire.hpp>

#include "tests/fuzz/fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace kstreams::dsl_detail;
    const std::string_view in = fuzz::view(data, size);

    const subscription_wrapper_serde subscriptions;
    std::optional<subscription_wrapper> s;
    if (fuzz::decodes([&] { s = subscriptions.deserialize(in); })) {
        FUZZ_CHECK(s->version <= subscription_wrapper::current_version);
        FUZZ_CHECK(fuzz::encode(subscriptions, *s) == in);
    }

    const subscription_response_serde responses;
    std::optional<subscription_response> r;
    if (fuzz::decodes([&] { r = responses.deserialize(in); })) {
        FUZZ_CHECK(r->version <= subscription_response::current_version);
        FUZZ_CHECK(fuzz::encode(responses, *r) == in);
    }

    std::string_view primary;
    if (fuzz::decodes([&] { primary = combined_key_primary(in); })) {
        FUZZ_CHECK(primary.data() >= in.data() + 4 && primary.data() + primary.size() == in.data() + in.size());
        std::string rebuilt;
        append_combined_key_prefix(in.substr(4, in.size() - 4 - primary.size()), rebuilt);
        rebuilt.append(primary);
        FUZZ_CHECK(rebuilt == in);
    }
    return 0;
}
