// ktable::suppress's buffer as Kafka's: restored from changelog records of every version Kafka's
// buffer restores (bytes as Kafka writes them), keys emitted in the context of the record that
// buffered them, and the suppression-buffer-size/-count metrics.
#include <doctest/doctest.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <kstreams/dsl.hpp>
#include <kstreams/serde.hpp>
#include <kstreams/test/topology_test_driver.hpp>

#include "window_rows.hpp"

using namespace kstreams;
using namespace std::chrono_literals;
using str = std::string;

namespace {
using window_rows::rows;
using window_rows::show;
using window_rows::read;
using window_rows::final_counts;
using window_rows::final_counts_to;


const std::string buffer_changelog = "test-app-final-store-changelog";

// ---- bytes as Kafka's buffer writes them ---------------------------------------------------------
std::string i32(std::int32_t v) {
    std::string out;
    detail::put_big_endian(v, out);
    return out;
}
std::string i64(std::int64_t v) {
    std::string out;
    detail::put_big_endian(v, out);
    return out;
}
std::string sized(const std::optional<std::string>& v) { return v ? i32(static_cast<std::int32_t>(v->size())) + *v : i32(-1); }
/// Kafka's ProcessorRecordContext.serialize (no headers).
std::string context(std::int64_t ts, std::int64_t offset) { return i64(ts) + i64(offset) + sized("in") + i32(0) + i32(0); }
/// Versions 0-2 wrote a change as one array: old, then new.
std::string legacy_change(const std::optional<std::string>& old_value, const std::optional<std::string>& new_value) {
    return sized(old_value) + sized(new_value);
}
/// The buffer's key of a time window [0, 10): the key, then the window start.
std::string window_key(const str& k) { return k + i64(0); }

test::produced_record changelog_record(const str& key, std::string value, std::int64_t ts, std::optional<char> version) {
    test::produced_record r{buffer_changelog, window_key(key), std::move(value), ts, {}};
    if (version) r.headers.add("v", std::string(1, *version));
    return r;
}

struct node_context_recorder final : processor<windowed<str>, std::int64_t, windowed<str>, std::int64_t> {
    std::vector<std::string>* seen;
    explicit node_context_recorder(std::vector<std::string>* s) : seen(s) {}
    void process(const record<windowed<str>, std::int64_t>& r) override {
        const auto m = context().metadata();
        seen->push_back(show(r.key) + " " + (m ? str(m->topic) + ":" + std::to_string(m->partition) + "@" +
                                                     std::to_string(m->offset)
                                               : str("none")));
    }
};
}  // namespace

TEST_CASE("a suppress buffer restores changelog records of versions 0, 1, 2 (and 3 bytes under 2's header) and 3") {
    const std::string one = i64(1), two = i64(2), four = i64(4), five = i64(5), six = i64(6);
    std::vector<test::produced_record> log{
        // Version 0 (no header): buffer time, old, new; the context is the changelog record's.
        changelog_record("a", i64(10) + legacy_change(std::nullopt, two), 7, std::nullopt),
        // Version 1: buffer time, record context, the change as one nullable array.
        changelog_record("b", i64(10) + context(3, 1) + sized(legacy_change(std::nullopt, one)), -1, '\x01'),
        // Version 2: record context, the change as one nullable array, prior value, buffer time.
        changelog_record("c", context(5, 2) + sized(legacy_change(std::nullopt, four)) + i32(-1) + i64(10), -1, '\x02'),
        // Version 3 bytes under version 2's header (Kafka 2.4.0-2.5.0): context, prior, old, new, time.
        changelog_record("d", context(6, 3) + i32(-1) + i32(-1) + sized(five) + i64(10), -1, '\x02'),
        // Version 3.
        changelog_record("e", context(8, 4) + i32(-1) + i32(-1) + sized(six) + i64(10), -1, '\x03'),
    };
    test::driver_config cfg;
    cfg.changelogs[buffer_changelog] = log;
    topology t = final_counts();
    test::topology_test_driver d(t, cfg);
    auto in = d.create_input_topic<str, str>("in");
    in.pipe_input("z", "x", 16);  // stream time 16 closes [0, 10) (grace 5)
    CHECK(read(d) == rows{{"a@0/10", 2, 7}, {"b@0/10", 1, 3}, {"c@0/10", 4, 5}, {"d@0/10", 5, 6}, {"e@0/10", 6, 8}});
}

TEST_CASE("a suppress buffer changelog record of an unknown version is a clear error") {
    test::driver_config cfg;
    cfg.changelogs[buffer_changelog] = {changelog_record("a", i64(10) + legacy_change(std::nullopt, i64(1)), 7, '\x04')};
    topology t = final_counts();
    auto restore_and_run = [&] {
        test::topology_test_driver d(t, cfg);
        d.create_input_topic<str, str>("in").pipe_input("z", "x", 16);
    };
    CHECK_THROWS_WITH(restore_and_run(), doctest::Contains("suppress buffer changelog: unknown version header v = [ 4 ]"));
}

TEST_CASE("a suppress buffer forwards each key in the context of the record that buffered it, as Kafka's") {
    std::vector<std::string> seen;
    topology t = final_counts_to([&seen](auto s) { s.process([&seen] { return std::make_unique<node_context_recorder>(&seen); }); });
    test::topology_test_driver d(t);
    auto in = d.create_input_topic<str, str>("in");
    in.pipe_input("a", "x", 1);   // offset 0
    in.pipe_input("b", "x", 3);   // offset 1
    in.pipe_input("a", "x", 7);   // offset 2: a's latest update
    in.pipe_input("c", "x", 16);  // offset 3: closes [0, 10)
    CHECK(seen == std::vector<std::string>{"a@0/10 in:0@2", "b@0/10 in:0@1"});
}

TEST_CASE("a suppress buffer records Kafka's suppression-buffer-size and -count after each change") {
    topology t = final_counts();
    test::topology_test_driver d(t);
    auto in = d.create_input_topic<str, str>("in");
    in.pipe_input("a", "x", 1);
    in.pipe_input("b", "x", 3);
    in.pipe_input("a", "x", 7);
    in.pipe_input("c", "x", 16);  // buffers c (3 keys), then emits a and b (1 key)
    const auto& m = d.metrics();
    CHECK(m.value("store-scope.final-store.in-memory-suppression") == 1);
    CHECK(m.value("suppression-buffer-count.final-store.max") == 3);
    // Recorded at init (0), at each of the 4 puts and after the eviction.
    CHECK(m.value("suppression-buffer-count.final-store.count") == 6);
    CHECK(m.value("suppression-buffer-count.final-store.sum") == 0 + 1 + 2 + 2 + 3 + 1);
    CHECK(m.value("suppression-buffer-size.final-store.count") == 6);
    CHECK(m.value("suppression-buffer-size.final-store.max") > 0);
}
