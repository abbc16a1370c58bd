// One window store suite and one session store suite, each run against the in-memory and the
// RocksDB implementation, with the record cache off and on, through the typed interfaces and a
// test store context.
#include <doctest/doctest.h>

#include <algorithm>
#include <span>
#include <string_view>

#include <kstreams/metrics.hpp>
#include <kstreams/state/window_stores.hpp>

#include "tests/state/store_test_support.hpp"

using namespace kstreams;
using namespace std::chrono_literals;
using kstreams::test_support::test_store_context;
using str = std::string;

namespace {

struct in_memory_kind {
    static constexpr bool persistent = false;
    static constexpr bool caching = false;
    static auto window(str name, std::chrono::milliseconds retention, std::chrono::milliseconds size, bool dups) {
        return stores::in_memory_window_store(std::move(name), retention, size, dups);
    }
    static auto session(str name, std::chrono::milliseconds retention) {
        return stores::in_memory_session_store(std::move(name), retention);
    }
};
struct rocksdb_kind {
    static constexpr bool persistent = true;
    static constexpr bool caching = false;
    static auto window(str name, std::chrono::milliseconds retention, std::chrono::milliseconds size, bool dups) {
        return stores::persistent_window_store(std::move(name), retention, size, dups);
    }
    static auto session(str name, std::chrono::milliseconds retention) {
        return stores::persistent_session_store(std::move(name), retention);
    }
};

struct in_memory_cached : in_memory_kind {
    static constexpr bool caching = true;
};
struct rocksdb_cached : rocksdb_kind {
    static constexpr bool caching = true;
};

template <class T>
std::unique_ptr<window_store<str, str>> make_window(test_store_context& ctx, std::chrono::milliseconds retention,
                                                    std::chrono::milliseconds size, bool dups = false) {
    auto b = stores::window_store_builder<str, str>(T::window("win", retention, size, dups));
    if (T::caching) {
        b.with_caching_enabled();
        if (!ctx.cache) ctx.enable_cache(1 << 20);
    }
    auto s = b.build();
    std::unique_ptr<window_store<str, str>> w(dynamic_cast<window_store<str, str>*>(s.release()));
    w->init(ctx);
    return w;
}

template <class T>
std::unique_ptr<session_store<str, str>> make_session(test_store_context& ctx, std::chrono::milliseconds retention) {
    auto b = stores::session_store_builder<str, str>(T::session("sess", retention));
    if (T::caching) {
        b.with_caching_enabled();
        if (!ctx.cache) ctx.enable_cache(1 << 20);
    }
    auto s = b.build();
    std::unique_ptr<session_store<str, str>> w(dynamic_cast<session_store<str, str>*>(s.release()));
    w->init(ctx);
    return w;
}

#define ALL_KINDS in_memory_kind, rocksdb_kind, in_memory_cached, rocksdb_cached

using by_time = std::vector<key_value<std::int64_t, str>>;
using by_key = std::vector<key_value<windowed<str>, str>>;

}  // namespace

TEST_CASE_TEMPLATE("window store: put, fetch one window, fetch a key's windows forward and backward", T,
                   ALL_KINDS) {
    test_store_context ctx;
    auto w = make_window<T>(ctx, 1h, 10s);
    CHECK(w->persistent() == T::persistent);
    w->put("a", "a0", 0);
    w->put("a", "a10", 10000);
    w->put("a", "a20", 20000);
    w->put("ab", "ab10", 10000);  // a key with "a" as prefix must not leak into fetches of "a"
    w->put("b", "b10", 10000);
    CHECK(w->fetch("a", 10000) == "a10");
    CHECK_FALSE(w->fetch("a", 5000));
    CHECK(w->fetch("a", 0, 20000).to_vector() == by_time{{0, "a0"}, {10000, "a10"}, {20000, "a20"}});
    CHECK(w->fetch("a", 5000, 20000).to_vector() == by_time{{10000, "a10"}, {20000, "a20"}});
    CHECK(w->backward_fetch("a", 0, 10000).to_vector() == by_time{{10000, "a10"}, {0, "a0"}});
    w->put("a", "A10", 10000);  // overwrite
    w->remove("a", 0);          // put(key, null)
    CHECK(w->fetch("a", 0, 20000).to_vector() == by_time{{10000, "A10"}, {20000, "a20"}});
}

TEST_CASE_TEMPLATE("window store: a fetch of one key from a later time finds its windows from that time on, and none past the latest",
                   T, ALL_KINDS) {
    test_store_context ctx;
    auto w = make_window<T>(ctx, 1h, 10s);
    for (int i = 0; i < 10; ++i) w->put("k", "k" + std::to_string(i), i * 1000);
    // A key whose bytes are "k" and a big-endian time: stored among k's entries, never one of them.
    str longer = "k";
    kstreams::detail::put_big_endian<std::int64_t>(4500, longer);
    w->put(longer, "x", 5000);
    CHECK(w->fetch("k", 4500, 6000).to_vector() == by_time{{5000, "k5"}, {6000, "k6"}});
    CHECK(w->backward_fetch("k", 4500, 6000).to_vector() == by_time{{6000, "k6"}, {5000, "k5"}});
    CHECK(w->fetch("k", 9000, 20000).to_vector() == by_time{{9000, "k9"}});
    CHECK(w->fetch("k", 9001, 20000).to_vector().empty());  // past the latest window put
    CHECK(w->fetch(longer, 0, 9000).to_vector() == by_time{{5000, "x"}});
}

TEST_CASE_TEMPLATE("window store: key range and all fetches carry windows [start, start + size)", T, ALL_KINDS) {
    test_store_context ctx;
    auto w = make_window<T>(ctx, 1h, 10s);
    w->put("b", "b0", 0);
    w->put("a", "a0", 0);
    w->put("c", "c10", 10000);
    w->put("a", "a10", 10000);
    auto range = w->fetch(str("a"), str("b"), 0, 10000).to_vector();
    if (T::persistent)  // Kafka's RocksDB order: by segment, then key, then start
        CHECK(range == by_key{{{"a", {0, 10000}}, "a0"}, {{"a", {10000, 20000}}, "a10"}, {{"b", {0, 10000}}, "b0"}});
    else  // Kafka's in-memory order: by start, then key
        CHECK(range == by_key{{{"a", {0, 10000}}, "a0"}, {{"b", {0, 10000}}, "b0"}, {{"a", {10000, 20000}}, "a10"}});
    auto all = w->all().to_vector();
    CHECK(all.size() == 4);
    auto back = w->backward_all().to_vector();
    REQUIRE(back.size() == 4);
    CHECK(back.front().key.key == "c");  // in-memory: keys descending within a start, as Kafka's
    auto timed = w->fetch_all(5000, 10000).to_vector();
    CHECK(timed == by_key{{{"a", {10000, 20000}}, "a10"}, {{"c", {10000, 20000}}, "c10"}});
    CHECK(w->fetch(std::nullopt, str("a"), 0, 100000).to_vector().size() == 2);
}

TEST_CASE_TEMPLATE("window store: windows past retention are dropped and never returned", T, in_memory_kind,
                   rocksdb_kind) {
    test_store_context ctx;
    auto w = make_window<T>(ctx, 120s, 10s);  // segments of 60 s
    w->put("k", "old", 0);
    w->put("k", "mid", 60000);
    w->put("k", "new", 200000);  // stream time 200 s: anything at or before 80 s is out of retention
    CHECK_FALSE(w->fetch("k", 0));
    CHECK_FALSE(w->fetch("k", 60000));
    CHECK(w->fetch("k", 0, 300000).to_vector() == by_time{{200000, "new"}});
    w->put("k", "late", 50000);  // an expired window is not stored
    CHECK(w->all().to_vector().size() == 1);
}

TEST_CASE_TEMPLATE("window store: retained duplicates keep every put", T, ALL_KINDS) {
    test_store_context ctx;
    auto w = make_window<T>(ctx, 1h, 10s, true);
    w->put("k", "x", 1000);
    w->put("k", "y", 1000);
    w->remove("k", 1000);  // ignored with duplicates
    CHECK(w->fetch("k", 0, 5000).to_vector() == by_time{{1000, "x"}, {1000, "y"}});
}

TEST_CASE("rocksdb window store with duplicates (writes held unwritten until read) answers as the in-memory one") {
    // The stream-stream join's store: every put a new entry. Puts, fetches of one key between
    // them, stream time moving past the retention (segments dropped), a late put not kept, a
    // flush, and a restore batch after held writes; each fetch compared with the in-memory store's.
    test_store_context rocks_ctx, memory_ctx;
    auto rocks = make_window<rocksdb_kind>(rocks_ctx, 120s, 10s, true);
    auto memory = make_window<in_memory_kind>(memory_ctx, 120s, 10s, true);
    std::uint64_t x = 99;
    const auto next = [&x](std::uint64_t n) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        return (x >> 33) % n;
    };
    std::int64_t time = 0;
    for (int step = 0; step < 6000; ++step) {
        const str key = "k" + std::to_string(next(20));
        if (next(4) != 0) {
            time += static_cast<std::int64_t>(next(100));
            // Now and then a record from the past, some of them behind the retention.
            const std::int64_t t = next(50) == 0 ? std::max<std::int64_t>(0, time - 130000) : time;
            const str value = std::to_string(step) + str(next(300), 'v');
            rocks->put(key, value, t);
            memory->put(key, value, t);
        } else {
            const std::int64_t from = std::max<std::int64_t>(0, time - static_cast<std::int64_t>(next(150000)));
            const auto want = memory->fetch(key, from, time).to_vector();
            REQUIRE(rocks->fetch(key, from, time).to_vector() == want);
            REQUIRE(rocks->backward_fetch(key, from, time).to_vector() ==
                    memory->backward_fetch(key, from, time).to_vector());
        }
        if (step % 1000 == 999) rocks->flush();
    }
    for (int k = 0; k < 20; ++k) {
        const str key = "k" + std::to_string(k);
        CHECK(rocks->fetch(key, 0, time).to_vector() == memory->fetch(key, 0, time).to_vector());
    }
    // The changelog of both: the same keys and values in the same order.
    REQUIRE(rocks_ctx.changes.size() == memory_ctx.changes.size());
    for (std::size_t i = 0; i < rocks_ctx.changes.size(); ++i) {
        CHECK(rocks_ctx.changes[i].key == memory_ctx.changes[i].key);
        CHECK(rocks_ctx.changes[i].value == memory_ctx.changes[i].value);
    }
}

TEST_CASE_TEMPLATE("window store: changelog keys are key ‖ start ‖ seqnum, and restoring them rebuilds the store", T,
                   in_memory_kind, rocksdb_kind) {
    test_store_context ctx;
    ctx.timestamp = 77;
    auto w = make_window<T>(ctx, 1h, 10s);
    w->put("k", "v", 1000);
    REQUIRE(ctx.changes.size() == 1);
    str expected_key = "k";
    detail::put_big_endian(std::int64_t{1000}, expected_key);
    detail::put_big_endian(std::int32_t{0}, expected_key);
    CHECK(ctx.changes[0].store == "win");
    CHECK(ctx.changes[0].key == expected_key);
    CHECK(ctx.changes[0].value == "v");
    CHECK(ctx.changes[0].timestamp == 77);

    test_store_context ctx2;
    auto w2 = make_window<T>(ctx2, 1h, 10s);
    REQUIRE(ctx2.registered.size() == 1);
    std::vector<restore_record> batch{{ctx.changes[0].key, std::string_view("v"), 77}};
    ctx2.registered[0].second(batch);
    CHECK(w2->fetch("k", 1000) == "v");
}

TEST_CASE("rocksdb window store: data survives reopening") {
    auto dir = test_support::fresh_temp_dir("window-reopen");
    {
        test_store_context ctx(dir);
        ctx.owns_dir = false;
        auto w = make_window<rocksdb_kind>(ctx, 1h, 10s);
        w->put("k", "v", 120000);
        w->close();
    }
    test_store_context ctx(dir);
    auto w = make_window<rocksdb_kind>(ctx, 1h, 10s);
    CHECK(w->fetch("k", 0, 200000).to_vector() == by_time{{120000, "v"}});
}

TEST_CASE("window store: retention shorter than the window is rejected naming the store") {
    CHECK_THROWS_WITH_AS(stores::in_memory_window_store("short", 1s, 10s, false), doctest::Contains("short"),
                         std::invalid_argument);
}

TEST_CASE_TEMPLATE("session store: put, fetch_session, find_sessions by end and start bounds", T, ALL_KINDS) {
    test_store_context ctx;
    auto s = make_session<T>(ctx, 1h);
    CHECK(s->persistent() == T::persistent);
    s->put({"a", {0, 10}}, "a1");
    s->put({"a", {100, 200}}, "a2");
    s->put({"ab", {5, 15}}, "ab");
    s->put({"b", {50, 60}}, "b");
    CHECK(s->fetch_session("a", 100, 200) == "a2");
    CHECK_FALSE(s->fetch_session("a", 100, 201));
    CHECK(s->fetch("a").to_vector() == by_key{{{"a", {0, 10}}, "a1"}, {{"a", {100, 200}}, "a2"}});
    CHECK(s->backward_fetch("a").to_vector().front().value == "a2");
    // end >= 10 and start <= 100: both sessions of a
    CHECK(s->find_sessions("a", 10, 100).to_vector().size() == 2);
    // end >= 11: only the second
    CHECK(s->find_sessions("a", 11, 1000).to_vector() == by_key{{{"a", {100, 200}}, "a2"}});
    // start <= 99: only the first
    CHECK(s->find_sessions("a", 0, 99).to_vector() == by_key{{{"a", {0, 10}}, "a1"}});
    CHECK(s->find_sessions(str("a"), str("b"), 0, INT64_MAX).to_vector().size() == 4);
    s->remove({"a", {0, 10}});
    CHECK(s->fetch("a").to_vector().size() == 1);
}

TEST_CASE_TEMPLATE("session store: changelog keys are key ‖ end ‖ start; old sessions expire", T, in_memory_kind,
                   rocksdb_kind) {
    test_store_context ctx;
    auto s = make_session<T>(ctx, 60s);
    s->put({"k", {5, 10}}, "v");
    REQUIRE(ctx.changes.size() == 1);
    str expected = "k";
    detail::put_big_endian(std::int64_t{10}, expected);
    detail::put_big_endian(std::int64_t{5}, expected);
    CHECK(ctx.changes[0].key == expected);
    s->put({"k", {300000, 300000}}, "w");
    CHECK_FALSE(s->fetch_session("k", 5, 10));
    CHECK(s->fetch("k").to_vector() == by_key{{{"k", {300000, 300000}}, "w"}});

    test_store_context ctx2;
    auto s2 = make_session<T>(ctx2, 60s);
    std::vector<restore_record> batch{{ctx.changes[0].key, std::string_view("v"), 0}};
    ctx2.registered[0].second(batch);
    CHECK(s2->fetch_session("k", 5, 10) == "v");
}

TEST_CASE_TEMPLATE("window and session stores restore changelog keys at the extremes of time without overflow", T,
                   in_memory_kind, rocksdb_kind) {
    // A changelog may hold any start or end: observed time minus the retention went below the
    // smallest time (undefined behaviour) for a start near it.
    for (const std::int64_t t : {INT64_MIN, INT64_MIN + 1, std::int64_t{-1}, INT64_MAX}) {
        CAPTURE(t);
        test_store_context ctx;
        auto w = make_window<T>(ctx, 1h, 10s);
        str key = "k";
        detail::put_big_endian(t, key);
        detail::put_big_endian(std::int32_t{0}, key);
        std::vector<restore_record> batch{{key, std::string_view("v"), 0}};
        ctx.registered[0].second(batch);
        CHECK(w->fetch("k", t) == "v");
        CHECK(w->fetch("k", INT64_MIN, INT64_MAX).to_vector().size() == 1);

        test_store_context ctx2;
        auto s = make_session<T>(ctx2, 1h);
        str session_key = "k";
        detail::put_big_endian(t, session_key);  // end
        detail::put_big_endian(t, session_key);  // start
        std::vector<restore_record> sessions{{session_key, std::string_view("s"), 0}};
        ctx2.registered[0].second(sessions);
        CHECK(s->fetch_session("k", t, t) == "s");
        CHECK(s->find_sessions("k", INT64_MIN, INT64_MAX).to_vector().size() == 1);
    }
}

// ---- retention of session writes: by session in memory, by segment in RocksDB (Kafka 4.4) ------

namespace {
std::unique_ptr<session_store<str, str>> make_session_of(test_store_context& ctx,
                                                          std::shared_ptr<const session_bytes_store_supplier> supplier) {
    auto s = stores::session_store_builder<str, str>(std::move(supplier)).build();
    std::unique_ptr<session_store<str, str>> w(dynamic_cast<session_store<str, str>*>(s.release()));
    w->init(ctx);
    return w;
}
}  // namespace

TEST_CASE_TEMPLATE("session store: a session written one retention behind stream time is dropped and counted in memory, "
                   "kept by its live segment in RocksDB; reads of a key show it in neither",
                   T, in_memory_kind, rocksdb_kind) {
    test_store_context ctx;
    kstreams::metrics m;
    ctx.res.metrics = &m;
    auto s = make_session<T>(ctx, 8ms);
    s->put({"a", {20, 20}}, "a");
    s->put({"b", {12, 12}}, "b");  // ends at 20 - 8: out of retention; its segment [0, 60 s) is live
    CHECK(m.value("dropped-records") == (T::persistent ? 0u : 1u));
    CHECK(m.value("dropped-records.expired") == (T::persistent ? 0u : 1u));
    CHECK_FALSE(s->fetch_session("b", 12, 12));
    CHECK(s->fetch("b").to_vector().empty());
    CHECK(s->find_sessions(std::optional<str>{}, std::optional<str>{}, 0, INT64_MAX).to_vector() ==
          by_key{{{"a", {20, 20}}, "a"}});
    // Removing a session is never counted.
    s->remove({"b", {12, 12}});
    CHECK(m.value("dropped-records") == (T::persistent ? 0u : 1u));
    // The changelog has both writes (Kafka's logging layer logs what the store drops too).
    CHECK(ctx.changes.size() == 3);
}

TEST_CASE_TEMPLATE("time-ordered session store (emitting on close): a write is kept while its segment is live and read "
                   "across all keys, not by key; restoring keeps the same",
                   T, in_memory_kind, rocksdb_kind) {
    // The RocksDB store is Kafka's; in memory it stands in for it when recovered by recomputation.
    test_store_context ctx;
    kstreams::metrics m;
    ctx.res.metrics = &m;
    auto s = make_session_of(ctx, kstreams::detail::time_ordered_session_store("sess", 8, T::persistent));
    s->put({"a", {20, 20}}, "a");
    s->put({"b", {12, 12}}, "b");
    const auto all = [&](std::int64_t from, std::int64_t to) {
        return s->find_sessions(std::optional<str>{}, std::optional<str>{}, from, to).to_vector();
    };
    CHECK(all(0, 19) == by_key{{{"b", {12, 12}}, "b"}});
    CHECK(s->fetch("b").to_vector().empty());
    CHECK_FALSE(s->fetch_session("b", 12, 12));
    // Segments of 60 s: at stream time 130000 the live ones start at segment 2 ([120000, 180000)).
    s->put({"z", {130000, 130000}}, "z");  // drops segment 0 (a and b)
    s->put({"d", {119999, 119999}}, "d");  // segment 1: dropped, counted
    s->put({"e", {120000, 120000}}, "e");  // 9992 ms out of retention, in segment 2: kept
    CHECK(m.value("dropped-records") == 1u);
    const by_key kept{{{"e", {120000, 120000}}, "e"}, {{"z", {130000, 130000}}, "z"}};
    CHECK(all(0, INT64_MAX) == kept);
    CHECK(s->fetch("e").to_vector().empty());

    // Restored from its changelog in one batch (the latest end first moves the clock) or record
    // by record, a fresh store holds the same.
    for (const std::size_t batch_size : {ctx.changes.size(), std::size_t{1}}) {
        CAPTURE(batch_size);
        test_store_context ctx2;
        auto s2 = make_session_of(ctx2, kstreams::detail::time_ordered_session_store("sess", 8, T::persistent));
        std::vector<restore_record> records;
        for (const auto& c : ctx.changes)
            records.push_back({c.key, c.value ? std::optional<std::string_view>(*c.value) : std::nullopt, c.timestamp});
        for (std::size_t i = 0; i < records.size(); i += batch_size)
            ctx2.registered[0].second(std::span(records).subspan(i, std::min(batch_size, records.size() - i)));
        CHECK(s2->find_sessions(std::optional<str>{}, std::optional<str>{}, 0, INT64_MAX).to_vector() == kept);
    }
}
