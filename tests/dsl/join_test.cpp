// Windowed stream-stream joins through the test driver: window edges inclusive on both sides,
// asymmetric windows mirrored for the other side, result timestamp max(left, right), null keys and
// values dropped and counted, records past retention not kept, names and stores as Kafka's; left
// and outer joins emit a record without partner null-padded only after its window closed, and a
// restart keeps what waits for a partner.
#include <doctest/doctest.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <kstreams/dsl.hpp>
#include <kstreams/state/window_stores.hpp>
#include <kstreams/test/topology_test_driver.hpp>

#include "tests/state/store_test_support.hpp"
#include "lib/runtime/internal_topic_config.hpp"

using namespace kstreams;
using namespace std::chrono_literals;
using str = std::string;

namespace {
/// A driver over a topology it does not own, with the join's topics.
struct fixture_on {
    test::topology_test_driver driver;
    test::test_input_topic<str, str> left;
    test::test_input_topic<str, str> right;
    test::test_output_topic<str, str> out;
    fixture_on(const topology& t, test::driver_config cfg = {})
        : driver(t, std::move(cfg)), left(driver.create_input_topic<str, str>("left")),
          right(driver.create_input_topic<str, str>("right")), out(driver.create_output_topic<str, str>("out")) {}
    /// "key:value@timestamp" per output record.
    std::vector<str> read() {
        std::vector<str> r;
        for (const auto& rec : out.read_records_to_list())
            r.push_back((rec.key_null ? str("<null>") : rec.key) + ":" + rec.value + "@" + std::to_string(rec.timestamp));
        return r;
    }
};
/// A driver over a topology of its own.
struct topology_holder {
    topology topo;
};
struct fixture : topology_holder, fixture_on {
    explicit fixture(topology t) : topology_holder{std::move(t)}, fixture_on(topo) {}
};
using lines = std::vector<str>;

str show(const std::optional<str>& v) { return v ? *v : str("null"); }

topology inner(join_windows w) {
    streams_builder b;
    auto l = b.stream<str, str>("left");
    auto r = b.stream<str, str>("right");
    l.join(r, [](const str& a, const str& c) { return a + "+" + c; }, w).to("out");
    return b.build();
}
topology left_join(join_windows w) {
    streams_builder b;
    auto l = b.stream<str, str>("left");
    auto r = b.stream<str, str>("right");
    l.left_join(r, [](const str& a, const std::optional<str>& c) { return a + "+" + show(c); }, w).to("out");
    return b.build();
}
topology outer_join(join_windows w) {
    streams_builder b;
    auto l = b.stream<str, str>("left");
    auto r = b.stream<str, str>("right");
    l.outer_join(r, [](const std::optional<str>& a, const std::optional<str>& c) { return show(a) + "+" + show(c); }, w)
        .to("out");
    return b.build();
}
}  // namespace

TEST_CASE("inner join matches records whose timestamps differ by at most the window, both edges inclusive") {
    fixture f(inner(join_windows::of_time_difference_with_no_grace(10ms)));
    f.left.pipe_input("a", "L1", 100);
    f.right.pipe_input("a", "R90", 90);     // 100 - 10: inside
    f.right.pipe_input("a", "R110", 110);   // 100 + 10: inside
    f.right.pipe_input("b", "Rb", 100);     // other key
    CHECK(f.read() == lines{"a:L1+R90@100", "a:L1+R110@110"});
    f.right.pipe_input("a", "R111", 111);   // 11 after L1: outside
    CHECK(f.read().empty());
    f.left.pipe_input("a", "L2", 105);      // matches R90? no (15); R110 yes; R111 yes
    CHECK(f.read() == lines{"a:L2+R110@110", "a:L2+R111@111"});
}

TEST_CASE("inner join result timestamp is the larger of the two and each stored duplicate joins") {
    fixture f(inner(join_windows::of_time_difference_with_no_grace(50ms)));
    f.right.pipe_input("k", "R1", 30);
    f.right.pipe_input("k", "R1", 30);
    f.left.pipe_input("k", "L", 20);
    CHECK(f.read() == lines{"k:L+R1@30", "k:L+R1@30"});
}

TEST_CASE("before/after make the window asymmetric, mirrored for the other stream") {
    // A left record at t matches right records in [t, t + 5]; a right record at t matches left
    // records in [t - 5, t].
    fixture f(inner(join_windows::of_time_difference_with_no_grace(0ms).after(5ms)));
    f.left.pipe_input("a", "L100", 100);
    f.right.pipe_input("a", "R99", 99);
    f.right.pipe_input("a", "R105", 105);
    f.right.pipe_input("a", "R106", 106);
    CHECK(f.read() == lines{"a:L100+R105@105"});
    f.left.pipe_input("a", "L101", 101);   // right records in [101, 106]
    CHECK(f.read() == lines{"a:L101+R105@105", "a:L101+R106@106"});
}

TEST_CASE("inner join drops and counts records with a null key or a null value") {
    fixture f(inner(join_windows::of_time_difference_with_no_grace(10ms)));
    const auto before = f.driver.metrics().value(metric::dropped_records);
    f.left.pipe_input("a", "L", 1);
    f.right.pipe_value("R", 1);
    f.right.pipe_input("a", std::nullopt, 1);
    CHECK(f.read().empty());
    CHECK(f.driver.metrics().value(metric::dropped_records) == before + 2);
}

TEST_CASE("a record behind the retention period still finds partners kept by the other side but is not kept") {
    // Retention = before + after + grace = 20. Each side's store drops records older than its own
    // newest record minus the retention (Kafka's window stores), the join processors drop nothing.
    fixture f(inner(join_windows::of_time_difference_with_no_grace(10ms)));
    f.left.pipe_input("a", "L100", 100);
    f.right.pipe_input("b", "Rb", 200);
    f.right.pipe_input("a", "R95", 95);    // joins L100 (left store's newest is 100)
    CHECK(f.read() == lines{"a:L100+R95@100"});
    f.left.pipe_input("a", "L96", 96);     // R95 was too old for the right store (newest 200)
    CHECK(f.read().empty());
}

TEST_CASE("join names processors and stores as Kafka Streams and keeps co-partitioned sides in one sub-topology") {
    const str d = inner(join_windows::of_time_difference_with_no_grace(10ms)).describe().to_string();
    CHECK(d.find("Processor: KSTREAM-WINDOWED-0000000002 (stores: [KSTREAM-JOINTHIS-0000000004-store])") != str::npos);
    CHECK(d.find("Processor: KSTREAM-JOINTHIS-0000000004 (stores: [KSTREAM-JOINOTHER-0000000005-store])") != str::npos);
    CHECK(d.find("Processor: KSTREAM-JOINOTHER-0000000005 (stores: [KSTREAM-JOINTHIS-0000000004-store])") != str::npos);
    CHECK(d.find("Processor: KSTREAM-MERGE-0000000006 (stores: [])") != str::npos);
    CHECK(d.find("Sub-topology: 1") == str::npos);
}

TEST_CASE("a re-keyed side is repartitioned through <node>-repartition before the join") {
    streams_builder b;
    auto l = b.stream<str, str>("left").select_key([](const str&, const str& v) { return v; });
    auto r = b.stream<str, str>("right");
    l.join(r, [](const str& a, const str& c) { return a + "+" + c; }, join_windows::of_time_difference_with_no_grace(10ms))
        .to("out");
    fixture f(b.build());
    const str d = f.topo.describe().to_string();
    CHECK(d.find("KSTREAM-KEY-SELECT-0000000001-repartition") != str::npos);
    f.left.pipe_input("x", "k", 5);
    f.right.pipe_input("k", "R", 7);
    CHECK(f.read() == lines{"k:k+R@7"});
}

TEST_CASE("stream_joined names the processors and stores") {
    streams_builder b;
    auto l = b.stream<str, str>("left");
    auto r = b.stream<str, str>("right");
    l.left_join(r, [](const str& a, const std::optional<str>&) { return a; }, join_windows::of_time_difference_with_no_grace(10ms),
                stream_joined<>{}.with_name("j").with_store_name("s"))
        .to("out");
    const str d = b.build().describe().to_string();
    CHECK(d.find("Processor: j-this-windowed (stores: [s-this-join-store])") != str::npos);
    CHECK(d.find("Processor: j-outer-other-join") != str::npos);
    CHECK(d.find("s-left-shared-join-store") != str::npos);
    CHECK(d.find("Processor: j-merge") != str::npos);
}

TEST_CASE("stream_joined store suppliers hold the buffers; their changelogs, as every join buffer's, are cleanup.policy=delete") {
    streams_builder b;
    auto l = b.stream<str, str>("left");
    auto r = b.stream<str, str>("right");
    // In memory on this side: the outer join's shared store follows it (Kafka's OuterStreamJoinStoreFactory).
    l.left_join(r, [](const str& a, const std::optional<str>& c) { return a + "+" + show(c); },
                join_windows::of_time_difference_and_grace(10ms, 5ms),
                stream_joined<>{}
                    .with_this_store_supplier(stores::in_memory_window_store("mine", 25ms, 20ms, true))
                    .with_other_store_supplier(stores::persistent_window_store("theirs", 25ms, 20ms, true))
                    .with_logging_enabled({{"cleanup.policy", "compact"}, {"segment.ms", "1000"}}))
        .to("out");
    topology t = b.build();
    std::map<str, const store_builder*> by_name;
    for (const auto& s : t.model().stores) by_name[s.builder->name()] = s.builder.get();
    REQUIRE(by_name.count("mine") == 1);
    REQUIRE(by_name.count("theirs") == 1);
    REQUIRE(by_name.count("mine-left-shared-join-store") == 1);
    for (const str name : {"mine", "theirs"}) {
        const auto config =
            kstreams::detail::changelog_topic_config(by_name[name]->logging().topic_config, {}, 24 * 60 * 60 * 1000);
        CHECK(config.at("cleanup.policy") == "delete");  // the user's "compact" overridden, as Kafka's
        CHECK(config.at("segment.ms") == "1000");
        CHECK(config.at("retention.ms") == std::to_string(25 + 24 * 60 * 60 * 1000));
    }
    test::topology_test_driver d(t);
    CHECK_FALSE(d.get_state_store("mine").persistent());
    CHECK(d.get_state_store("theirs").persistent());
    CHECK_FALSE(d.get_state_store("mine-left-shared-join-store").persistent());
    auto left = d.create_input_topic<str, str>("left");
    auto right = d.create_input_topic<str, str>("right");
    auto out = d.create_output_topic<str, str>("out");
    left.pipe_input("a", "L1", 10);
    right.pipe_input("a", "R1", 15);
    const auto recs = out.read_records_to_list();
    REQUIRE(recs.size() == 1);
    CHECK(recs[0].value == "L1+R1");
    // Without a supplier the join's own buffers are delete-only too.
    topology plain = left_join(join_windows::of_time_difference_and_grace(10ms, 5ms));
    for (const auto& s : plain.model().stores)
        if (s.builder->name().ends_with("-this-join-store") || s.builder->name().ends_with("-other-join-store"))
            CHECK(kstreams::detail::changelog_topic_config(s.builder->logging().topic_config, {{"cleanup.policy", "compact"}}, 0)
                      .at("cleanup.policy") == "delete");
}

TEST_CASE("stream_joined store suppliers Kafka refuses: duplicates not retained, other window settings, one name for both") {
    auto join_with = [](auto sj) {
        streams_builder b;
        b.stream<str, str>("left").join(b.stream<str, str>("right"), [](const str& a, const str& c) { return a + c; },
                                        join_windows::of_time_difference_and_grace(10ms, 5ms), sj);
    };
    CHECK_THROWS_WITH_AS(join_with(stream_joined<>{}.with_this_store_supplier(stores::in_memory_window_store("x", 25ms, 20ms, false))),
                         doctest::Contains("must set retainDuplicates=true"), topology_error);
    CHECK_THROWS_WITH_AS(join_with(stream_joined<>{}.with_other_store_supplier(stores::in_memory_window_store("x", 26ms, 20ms, true))),
                         doctest::Contains("Window settings mismatch"), topology_error);
    CHECK_THROWS_WITH_AS(join_with(stream_joined<>{}.with_other_store_supplier(stores::in_memory_window_store("x", 25ms, 21ms, true))),
                         doctest::Contains("store supplier x"), topology_error);
    CHECK_THROWS_WITH_AS(join_with(stream_joined<>{}
                                       .with_this_store_supplier(stores::in_memory_window_store("x", 25ms, 20ms, true))
                                       .with_other_store_supplier(stores::in_memory_window_store("x", 25ms, 20ms, true))),
                         doctest::Contains("Both StoreSuppliers have the same name"), topology_error);
}

TEST_CASE("left join emits an unmatched record null-padded only after its window closed, with its own timestamp") {
    fixture f(left_join(join_windows::of_time_difference_with_no_grace(10ms)));
    f.left.pipe_input("a", "L1", 100);
    f.left.pipe_input("b", "L2", 105);
    CHECK(f.read().empty());
    f.right.pipe_input("b", "R", 108);     // b joins: L2 no longer waits
    CHECK(f.read() == lines{"b:L2+R@108"});
    f.left.pipe_input("c", "L3", 110);     // stream time 110: a's window [90, 110] not yet closed
    CHECK(f.read().empty());
    f.left.pipe_input("c", "L4", 111);     // 100 + 10 < 111: a is emitted, b is not
    CHECK(f.read() == lines{"a:L1+null@100"});
}

TEST_CASE("left join: grace delays the null-padded result") {
    fixture f(left_join(join_windows::of_time_difference_and_grace(10ms, 5ms)));
    f.left.pipe_input("a", "L1", 100);
    f.left.pipe_input("z", "Z", 115);      // 100 + 10 + 5 = 115: not yet
    CHECK(f.read().empty());
    f.left.pipe_input("y", "Y", 116);
    CHECK(f.read() == lines{"a:L1+null@100"});
    f.left.pipe_input("b", "L2", 120);
    f.left.pipe_input("x", "X", 200);
    CHECK(f.read() == lines{"z:Z+null@115", "y:Y+null@116", "b:L2+null@120"});
}

TEST_CASE("left join: a right record without partner is never emitted; a late left record is emitted at once") {
    fixture f(left_join(join_windows::of_time_difference_with_no_grace(10ms)));
    f.right.pipe_input("a", "R", 100);
    f.left.pipe_input("z", "Z", 200);
    f.left.pipe_input("late", "L", 50);    // its window [40, 60] is behind stream time 200
    CHECK(f.read() == lines{"late:L+null@50"});
}

TEST_CASE("left join passes a null-key left record on null-padded at once") {
    fixture f(left_join(join_windows::of_time_difference_with_no_grace(10ms)));
    f.left.pipe_value("L", 5);
    CHECK(f.read() == lines{"<null>:L+null@5"});
}

TEST_CASE("outer join emits both sides' unmatched records in timestamp order after their windows close") {
    fixture f(outer_join(join_windows::of_time_difference_with_no_grace(10ms)));
    f.right.pipe_input("r", "R1", 100);
    f.left.pipe_input("l", "L1", 101);
    f.left.pipe_input("m", "L2", 102);
    f.right.pipe_input("m", "R2", 103);
    CHECK(f.read() == lines{"m:L2+R2@103"});
    f.left.pipe_input("z", "Z", 112);      // closes r (100 + 10 < 112) and l (101 + 10 < 112)
    CHECK(f.read() == lines{"r:null+R1@100", "l:L1+null@101"});
}

namespace {
using ostr = std::optional<str>;
/// Text before the first ',' of v, or null if there is none (the issue's key selector).
ostr before_comma(const str& v) {
    const auto at = v.find(',');
    return at == str::npos ? std::nullopt : ostr(v.substr(0, at));
}
/// left.select_key(before_comma) <join kind> right.select_key(before_comma), joined values "l+r".
template <class Join>
topology rekeyed_both_sides(Join join) {
    streams_builder b;
    auto l = b.stream<str, str>("left").select_key(before_comma);
    auto r = b.stream<str, str>("right").select_key(before_comma);
    join(l, r).to("out");
    return b.build();
}
std::size_t null_keys_in(test::topology_test_driver& d, const str& topic) {
    std::size_t n = 0;
    for (const auto& r : d.produced(topic)) n += r.key ? 0 : 1;
    return n;
}
}  // namespace

TEST_CASE("an inner join's repartition topic drops null-key records, a left or outer join's keeps them (both sides)") {
    const auto w = join_windows::of_time_difference_and_grace(10ms, 5ms);
    const str left_topic = "test-app-KSTREAM-KEY-SELECT-0000000001-repartition";
    const str right_topic = "test-app-KSTREAM-KEY-SELECT-0000000003-repartition";
    SUBCASE("inner") {
        topology t = rekeyed_both_sides([&](auto l, auto r) { return l.join(r, [](const str& a, const str& c) { return a + "+" + c; }, w); });
        CHECK(t.describe().to_string().find("Processor: KSTREAM-FILTER-0000000005") != str::npos);
        test::topology_test_driver d(t);
        d.create_input_topic<str, str>("left").pipe_input("x", "x", 0);
        d.create_input_topic<str, str>("right").pipe_input("y", "y", 0);
        CHECK(d.produced(left_topic).empty());
        CHECK(d.produced(right_topic).empty());
        CHECK(d.metrics().value(metric::dropped_records) == 0);  // Kafka's filter counts nothing
    }
    SUBCASE("left") {
        topology t = rekeyed_both_sides([&](auto l, auto r) {
            return l.left_join(r, [](const str& a, const ostr& c) { return a + "+" + show(c); }, w);
        });
        test::topology_test_driver d(t);
        d.create_input_topic<str, str>("left").pipe_input("x", "x", 0);
        d.create_input_topic<str, str>("right").pipe_input("y", "y", 0);
        CHECK(null_keys_in(d, left_topic) == 1);
        CHECK(null_keys_in(d, right_topic) == 1);
        auto out = d.create_output_topic<ostr, str>("out").read_key_values_to_list();
        REQUIRE(out.size() == 1);
        CHECK(out[0].value == "x+null");
    }
    SUBCASE("outer") {
        topology t = rekeyed_both_sides([&](auto l, auto r) {
            return l.outer_join(r, [](const ostr& a, const ostr& c) { return show(a) + "+" + show(c); }, w);
        });
        test::topology_test_driver d(t);
        d.create_input_topic<str, str>("left").pipe_input("x", "x", 0);
        CHECK(null_keys_in(d, left_topic) == 1);
    }
}

TEST_CASE("a repartition keeps null keys when a left join is anywhere downstream, and drops them on other paths") {
    streams_builder b;
    auto rekeyed = b.stream<str, str>("left").select_key(before_comma);
    // repartition() -> inner join -> left join: the explicit repartition is upstream of a left join.
    auto once = rekeyed.repartition(repartitioned<>::as("through"));
    auto right = b.stream<ostr, str>("right");
    auto inner = once.join(right, [](const str& a, const str& c) { return a + "+" + c; },
                           join_windows::of_time_difference_with_no_grace(10ms));
    inner.left_join(b.stream<ostr, str>("third"), [](const str& a, const ostr& c) { return a + "+" + show(c); },
                    join_windows::of_time_difference_with_no_grace(10ms))
        .to("out");
    // The same re-keyed stream grouped: no relaxed join below this repartition.
    rekeyed.group_by_key(grouped<>::as("counted")).count().to_stream().to("counts");
    test::topology_test_driver d(b.build());
    d.create_input_topic<str, str>("left").pipe_input("x", "x", 0);
    CHECK(null_keys_in(d, "test-app-through-repartition") == 1);
    CHECK(d.produced("test-app-counted-repartition").empty());
}

TEST_CASE("left and outer joins of optional value types pass nullopt for a missing partner (no crash)") {
    using opt = std::optional<str>;
    auto show_opt = [](const opt& v) { return v ? *v : str("null"); };
    SUBCASE("left_join, the issue's case") {
        streams_builder b;
        b.stream<opt, opt>("left")
            .left_join(b.stream<opt, opt>("right"), [&](const opt& a, const opt& c) { return opt(show_opt(a) + "+" + show_opt(c)); },
                       join_windows::of_time_difference_and_grace(10ms, 0ms))
            .to("out");
        test::topology_test_driver d(b.build());
        auto left = d.create_input_topic<opt, opt>("left");
        left.pipe_input(opt("a"), opt("L1"), 0);
        left.pipe_input(opt("b"), opt("L2"), 100);
        auto out = d.create_output_topic<opt, opt>("out").read_records_to_list();
        REQUIRE(out.size() == 1);
        CHECK(out[0].key == opt("a"));
        CHECK(out[0].value == opt("L1+null"));
        CHECK(out[0].timestamp == 0);
    }
    SUBCASE("outer_join with the key, both sides optional") {
        streams_builder b;
        b.stream<opt, opt>("left")
            .outer_join(b.stream<opt, opt>("right"),
                        [&](const opt& k, const opt& a, const opt& c) { return show_opt(k) + ":" + show_opt(a) + "+" + show_opt(c); },
                        join_windows::of_time_difference_and_grace(10ms, 0ms))
            .to("out");
        test::topology_test_driver d(b.build());
        d.create_input_topic<opt, opt>("right").pipe_input(opt("r"), opt("R1"), 0);
        d.create_input_topic<opt, opt>("left").pipe_input(opt("l"), opt("L1"), 50);
        d.create_input_topic<opt, opt>("left").pipe_input(opt("z"), opt("L2"), 100);
        auto out = d.create_output_topic<opt, str>("out").read_key_values_to_list();
        REQUIRE(out.size() == 2);
        CHECK(out[0].value == "r:null+R1");
        CHECK(out[1].value == "l:L1+null");
    }
}

namespace {
/// Removes the directory after everything declared later (the drivers) is gone.
struct temp_dir {
    std::filesystem::path path = test_support::fresh_temp_dir("join-restart");
    ~temp_dir() {
        std::error_code ec;
        std::filesystem::remove_all(path, ec);
    }
};

topology left_join_stored(join_windows w, bool persistent) {
    streams_builder b;
    auto l = b.stream<str, str>("left");
    auto r = b.stream<str, str>("right");
    const auto joined = persistent ? stream_joined<>{}.with_persistent_stores() : stream_joined<>{}.with_in_memory_stores();
    l.left_join(r, [](const str& a, const std::optional<str>& c) { return a + "+" + show(c); }, w, joined).to("out");
    return b.build();
}

/// Runs `before` on a driver, then `after` on a second one over the first one's stores: restored
/// from its changelogs into a fresh directory, or reopened from the same directory.
template <class Before, class After>
void across_restart(const topology& t, bool same_directory, Before before, After after) {
    temp_dir dir;
    test::driver_config first_cfg;
    first_cfg.state_dir = dir.path;
    std::map<std::string, std::vector<test::produced_record>> changelogs;
    {
        fixture_on f(t, first_cfg);
        before(f);
        changelogs = f.driver.changelog_records();
    }
    test::driver_config cfg;
    if (same_directory) cfg.state_dir = dir.path;
    cfg.changelogs = changelogs;
    fixture_on f(t, cfg);
    after(f);
}
}  // namespace

TEST_CASE("left join restarted with records waiting for a partner: a partner after the restart takes them out of waiting") {
    // The join keeps a filter of its waiting records' keys beside the outer store: after a restart
    // it is built from the store, restored from its changelog or reopened from disk.
    for (const bool persistent : {false, true}) {
        for (const bool same_directory : {false, true}) {
            CAPTURE(persistent);
            CAPTURE(same_directory);
            across_restart(
                left_join_stored(join_windows::of_time_difference_with_no_grace(10ms), persistent), same_directory,
                [](fixture_on& f) {
                    f.left.pipe_input("a", "L1", 100);
                    f.left.pipe_input("b", "L2", 105);
                    f.left.pipe_input("b", "L3", 105);  // two waiting under one outer store key
                    CHECK(f.read().empty());
                },
                [](fixture_on& f) {
                    f.right.pipe_input("b", "R", 108);
                    f.left.pipe_input("c", "L4", 116);  // closes a's window (100 + 10 < 116), not c's
                    CHECK(f.read() == lines{"b:L2+R@108", "b:L3+R@108", "a:L1+null@100"});
                    f.left.pipe_input("z", "Z", 200);  // closes c's: b's went out joined, never null-padded
                    CHECK(f.read() == lines{"c:L4+null@116"});
                });
        }
    }
}

TEST_CASE("left join: a key taken out of waiting by a partner, then waiting again, across a restart") {
    // The filter cannot forget a removed key: a key parked, removed and parked again must still be
    // found, before and after a restart (which builds the filter afresh from the store).
    for (const bool persistent : {false, true}) {
        for (const bool same_directory : {false, true}) {
            CAPTURE(persistent);
            CAPTURE(same_directory);
            across_restart(
                left_join_stored(join_windows::of_time_difference_and_grace(10ms, 100ms), persistent), same_directory,
                [](fixture_on& f) {
                    f.left.pipe_input("a", "L1", 100);   // waits
                    f.right.pipe_input("a", "R1", 105);  // takes it out of waiting
                    f.left.pipe_input("a", "L2", 130);   // waits (R1 is 25 before)
                    f.left.pipe_input("b", "L3", 131);   // waits
                    CHECK(f.read() == lines{"a:L1+R1@105"});
                },
                [](fixture_on& f) {
                    f.left.pipe_input("a", "L4", 100);   // the first key again (R1 in reach: joined at once)
                    f.right.pipe_input("a", "R2", 135);  // takes L2 out of waiting
                    f.left.pipe_input("a", "L5", 150);   // waits (R2 is 15 before)
                    CHECK(f.read() == lines{"a:L4+R1@105", "a:L2+R2@135"});
                    f.left.pipe_input("z", "Z", 500);    // closes every window: L3 and L5 went on waiting
                    CHECK(f.read() == lines{"b:L3+null@131", "a:L5+null@150"});
                });
        }
    }
}
