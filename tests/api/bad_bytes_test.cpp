// Inputs the fuzz targets (tests/fuzz) found, kept as regression tests: each decoder gives a
// deserialization_error naming what was wrong (a checkpoint file: unreadable), never a crash, an
// out-of-range read or a wrong value.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <kstreams/dsl/change.hpp>
#include <kstreams/dsl/detail/fk_join_wire.hpp>
#include <kstreams/dsl/detail/join_buffer.hpp>
#include <kstreams/dsl/ops/stream_join.hpp>

#include "lib/runtime/checkpoint.hpp"
#include "lib/state/suppress_changelog.hpp"
#include "tests/support/process_state_dir.hpp"

using namespace kstreams;

namespace {
std::string raw(std::initializer_list<int> b) {
    std::string s;
    for (int c : b) s.push_back(static_cast<char>(c));
    return s;
}
}  // namespace

TEST_CASE("a table change with a negative new-value length is an error, not garbage") {
    const dsl_detail::change_serde<std::string, serde<std::string>> s;
    // The new value's length is a zigzag varint, as Kafka's ChangedSerializer writes it (0x01 is -1).
    CHECK_THROWS_WITH_AS(s.deserialize(raw({0x01, 'n', 'e', 'w', 0x02})),
                         "change: the new value's length -1 is not within the 3 bytes after it", deserialization_error);
    CHECK_THROWS_AS(s.deserialize(raw({0x12, 'a', 0x02})), deserialization_error);                     // 9 of 1
    CHECK_THROWS_AS(s.deserialize(raw({0x80, 0x80, 0x80, 0x80, 0x80, 0x01, 0x02})), deserialization_error);  // 6 bytes
    CHECK_THROWS_AS(s.deserialize(raw({0x80, 0x02})), deserialization_error);                          // cut short
    CHECK(s.deserialize(raw({0x02, 'n', 'o', 0x02})) == change<std::string>{"n", "o"});
    std::string out;
    s.serialize(change<std::string>{std::string(72, 'x'), "o"}, out);
    CHECK(out.substr(0, 2) == raw({0x90, 0x01}));  // 72: two varint bytes, as Kafka
}

TEST_CASE("the stream join's outer store: short keys and overlong items are errors") {
    using codec_t = dsl_detail::outer_store_codec<std::string, std::string, std::string>;
    const codec_t codec{serde_ref<std::string>(serde<std::string>{}), serde_ref<std::string>(serde<std::string>{}),
                        serde_ref<std::string>(serde<std::string>{})};
    // fuzz_store_values: "new\x01" as a key used to throw std::out_of_range (and read 8 bytes of 4).
    CHECK_THROWS_WITH_AS(codec.decode_key(raw({'n', 'e', 'w', 1})),
                         "stream join outer store key: 4 bytes, fewer than the 9 of its timestamp and join side",
                         deserialization_error);
    CHECK_THROWS_AS(codec_t::timestamp_of("short"), deserialization_error);
    const std::string key = codec.encode_key(-7, true, "k");
    CHECK(codec.decode_key(key) == "k");
    CHECK(codec_t::timestamp_of(key) == -7);

    std::string list;
    codec_t::append(list, true, codec.left, std::string("left"));
    int items = 0;
    codec_t::for_each_item(list, [&](std::string_view) { ++items; });
    CHECK(items == 1);
    auto visit = [](std::string_view l) { codec_t::for_each_item(l, [](std::string_view) {}); };
    // Kafka's ListSerializer layout: 0x01, a 4-byte count, then length-prefixed items.
    CHECK(list.substr(0, 5) == raw({1, 0, 0, 0, 1}));
    CHECK_THROWS_AS(visit(raw({1, 0, 0, 0, 1, 0, 0, 0, 9, 1, 'x'})), deserialization_error);  // past the end
    CHECK_THROWS_AS(visit(raw({1, 0, 0, 0, 1, 0xff, 0xff, 0xff, 0xff, 1})), deserialization_error);  // negative
    CHECK_THROWS_AS(visit(list + raw({0, 0})), deserialization_error);                         // bytes after the count
    CHECK_THROWS_AS(visit(raw({0, 0, 0, 0, 1})), deserialization_error);                       // no 0x01 first
}

TEST_CASE("the stream-table join buffer's key: the time-first prefix 0x00, time, key, sequence; others are errors") {
    const std::string k = dsl_detail::join_buffer_key(12, "a", 1);
    CHECK(k == raw({0, 0, 0, 0, 0, 0, 0, 0, 12, 'a', 0, 0, 0, 1}));  // as Kafka 4.4.0's buffer changelog
    CHECK(dsl_detail::join_buffer_key_time(k) == 12);
    CHECK(dsl_detail::join_buffer_key_bytes(k) == "a");
    CHECK_THROWS_WITH_AS(dsl_detail::join_buffer_key_time(raw({1, 0, 0, 0, 0, 0, 0, 0, 12, 'a', 0, 0, 0, 1})),
                         "stream-table join buffer: a key not starting with the time-first prefix 0x00",
                         deserialization_error);
    CHECK_THROWS_AS(dsl_detail::join_buffer_key_bytes(raw({0, 0, 0, 0, 0, 0, 0, 0, 12, 0, 0, 0})), deserialization_error);
}

TEST_CASE("foreign-key join wire formats refuse versions they do not know, as Kafka's") {
    using namespace dsl_detail;
    // fuzz_fk_join_wire: version 2 used to be read as version 1.
    std::string sub;
    subscription_wrapper_serde{}.serialize({std::nullopt, fk_instruction::delete_key_no_propagate, "pk", 0, 1}, sub);
    sub[0] = static_cast<char>((sub[0] & 0x80) | 2);
    CHECK_THROWS_WITH_AS(subscription_wrapper_serde{}.deserialize(sub),
                         "subscription: version 2 is not supported (this version of kstreams writes and reads up to 1)",
                         deserialization_error);
    CHECK_THROWS_AS(subscription_response_serde{}.deserialize(raw({0x01, 'v'})), deserialization_error);
    CHECK(subscription_response_serde{}.deserialize(raw({0x80, 'v'})).foreign_value == "v");
}

TEST_CASE("the suppress buffer's changelog value: truncated or negative lengths are errors") {
    dsl_detail::suppress_buffer_value v;
    v.context = {1, 2, "topic", 0, {}};
    v.context.hdrs.add("h", std::nullopt);
    v.prior = "p";
    v.old_value = "p";
    v.new_value = "n";
    const std::string good = dsl_detail::encode_suppress_changelog_value(v, 42);
    const auto [time, back] = dsl_detail::decode_suppress_changelog_value(good);
    CHECK(time == 42);
    CHECK(back.old_value == "p");
    CHECK(back.context.hdrs == v.context.hdrs);
    for (std::size_t cut = 0; cut < good.size(); ++cut)
        CHECK_THROWS_AS(dsl_detail::decode_suppress_changelog_value(good.substr(0, cut)), deserialization_error);
    std::string negative = good;
    negative[16] = negative[17] = negative[18] = negative[19] = '\xf0';  // the topic's length
    CHECK_THROWS_WITH_AS(dsl_detail::decode_suppress_changelog_value(negative), "suppress buffer changelog: bad length",
                         deserialization_error);
}

TEST_CASE("checkpoint files are read as Kafka's OffsetCheckpoint: invalid offsets skipped, malformed files unreadable") {
    const auto dir = kstreams::test::process_state_dir("kstreams-checkpoint");
    std::filesystem::create_directories(dir);
    auto read = [&](const std::string& text, bool& unreadable) {
        std::ofstream(dir / ".checkpoint", std::ios::binary | std::ios::trunc) << text;
        return detail::read_checkpoint(dir, &unreadable);
    };
    bool unreadable = false;
    // fuzz_state_files: a negative offset used to be taken as a position (-1 is librdkafka's end).
    CHECK(read("0\n3\na 0 -1\nb 1 7\nc 2 -4\n", unreadable) == detail::checkpoint_offsets{{{"b", 1}, 7}});
    CHECK(!unreadable);
    CHECK(read("0\r\n1\r\nt 0 5\r\n", unreadable) == detail::checkpoint_offsets{{{"t", 0}, 5}});
    CHECK(!unreadable);
    for (const char* bad : {"", "1\n0\n", "0\n", "0\nx\n", "0\n1\nt 0\n5\n", "0\n1\nt 0 5 6\n", "0\n2\nt 0 5\n",
                            "0\n1\nt 0 5x\n", "0\n1\nt 99999999999 5\n", "0\n2\nt 0 5\nt 0 6\n", "0 \n0\n"}) {
        CAPTURE(bad);
        CHECK(read(bad, unreadable).empty());
        CHECK(unreadable);
    }
    std::filesystem::remove_all(dir);
}

TEST_CASE("the suppress buffer's changelog value: a header count Kafka refuses is an error") {
    dsl_detail::suppress_buffer_value v;
    v.context = {1, 2, "t", 0, {}};
    v.new_value = "n";
    const std::string good = dsl_detail::encode_suppress_changelog_value(v, 42);
    const std::size_t count_at = 8 + 8 + 4 + 1 + 4;
    std::string minus_one = good, minus_two = good, too_many = good;
    minus_one.replace(count_at, 4, std::string(4, '\xff'));
    CHECK(dsl_detail::decode_suppress_changelog_value(minus_one).second.new_value == "n");  // older versions' "none"
    minus_two.replace(count_at, 4, raw({0xff, 0xff, 0xff, 0xfe}));
    CHECK_THROWS_WITH_AS(dsl_detail::decode_suppress_changelog_value(minus_two),
                         "suppress buffer changelog: a header count of -2 with 21 bytes left", deserialization_error);
    too_many.replace(count_at, 4, raw({0, 0, 0, 3}));
    CHECK_THROWS_AS(dsl_detail::decode_suppress_changelog_value(too_many), deserialization_error);
}
