// Store and internal-topic value formats: the timestamped store value (Kafka's
// ValueAndTimestampSerde: 8-byte timestamp ‖ value), a table's change through a repartition topic
// (new/old values with a flag byte and a length prefix), and the stream-stream outer join store's
// keys (timestamp ‖ side ‖ key) and value lists (length ‖ side ‖ value, repeated), which are restored
// from its changelog. Decode or the clear error; what decodes encodes back to the same bytes.
#include <optional>

#include <kstreams/dsl/change.hpp>
#include <kstreams/dsl/ops/stream_join.hpp>
#include <kstreams/state/timestamped_key_value_store.hpp>

#include "tests/fuzz/fuzz.hpp"

namespace {

template <class V>
void timestamped(std::string_view in) {
    const kstreams::value_and_timestamp_serde<V> s;
    std::optional<kstreams::value_and_timestamp<V>> v;
    if (fuzz::decodes([&] { v = s.deserialize(in); })) FUZZ_CHECK(fuzz::encode(s, *v) == in);
}

template <class V>
void change(std::string_view in) {
    const kstreams::dsl_detail::change_serde<V, kstreams::serde<V>> s;
    std::optional<kstreams::change<V>> c;
    // The new value's length is a varint, which Kafka's reader takes in more bytes than needed
    // too: what decodes encodes to bytes that decode to the same change.
    if (fuzz::decodes([&] { c = s.deserialize(in); })) FUZZ_CHECK(s.deserialize(fuzz::encode(s, *c)) == *c);
}

/// What the outer join's punctuation does with a stored key and its list.
template <class K, class V1, class V2>
void outer_join_entry(std::string_view key, std::string_view list) {
    using codec_t = kstreams::dsl_detail::outer_store_codec<K, V1, V2>;
    const codec_t codec{kstreams::serde_ref<K>(kstreams::serde<K>{}), kstreams::serde_ref<V1>(kstreams::serde<V1>{}),
                        kstreams::serde_ref<V2>(kstreams::serde<V2>{})};
    fuzz::decodes([&] {
        const K k = codec.decode_key(key);
        const std::int64_t ts = codec_t::timestamp_of(key);
        const bool left = codec_t::is_left(key);
        std::string normalized(key);  // a side byte other than 1 is the right side, as Kafka's
        normalized[8] = left ? 1 : 0;
        FUZZ_CHECK(codec.encode_key(ts, left, k) == normalized);
        codec_t::for_each_item(list, [&](std::string_view item) {
            if (item.empty()) return;
            if (item[0] == 1) (void)codec.left.deserialize(item.substr(1));
            else (void)codec.right.deserialize(item.substr(1));
        });
    });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view in = fuzz::view(data, size);
    timestamped<std::string>(in);
    timestamped<std::int64_t>(in);
    change<std::string>(in);
    change<std::int32_t>(in);
    // The first byte splits the rest into a key and a list.
    if (!in.empty()) {
        const std::size_t split = std::min<std::size_t>(static_cast<unsigned char>(in[0]), in.size() - 1);
        const std::string_view key = in.substr(1, split), list = in.substr(1 + split);
        outer_join_entry<std::string, std::string, std::string>(key, list);
        outer_join_entry<std::int32_t, std::int64_t, std::string>(key, list);
    }
    return 0;
}
