// Caching and metering of window and session stores, scan order per implementation (Kafka's
// in-memory and RocksDB orders), and key-range scans where one key is a byte prefix of key_to.
#include <doctest/doctest.h>

#include <random>

#include <kstreams/processor.hpp>
#include <kstreams/state/window_stores.hpp>
#include <kstreams/test/topology_test_driver.hpp>
#include <kstreams/topology.hpp>

#include "tests/state/store_test_support.hpp"

using namespace kstreams;
using namespace std::chrono_literals;
using kstreams::test_support::test_store_context;
using str = std::string;
using by_key = std::vector<key_value<windowed<str>, str>>;

namespace {

std::unique_ptr<window_store<str, str>> window_of(test_store_context& ctx, bool persistent, bool caching,
                                                  std::chrono::milliseconds retention = 1h) {
    auto supplier = persistent ? stores::persistent_window_store("win", retention, 10s, false)
                               : stores::in_memory_window_store("win", retention, 10s, false);
    auto b = stores::window_store_builder<str, str>(supplier);
    if (caching) {
        b.with_caching_enabled();
        if (!ctx.cache) ctx.enable_cache(1 << 20);
    }
    std::unique_ptr<window_store<str, str>> w(dynamic_cast<window_store<str, str>*>(b.build().release()));
    w->init(ctx);
    return w;
}

std::unique_ptr<session_store<str, str>> session_of(test_store_context& ctx, bool persistent, bool caching) {
    auto supplier = persistent ? stores::persistent_session_store("sess", 1h) : stores::in_memory_session_store("sess", 1h);
    auto b = stores::session_store_builder<str, str>(supplier);
    if (caching) {
        b.with_caching_enabled();
        if (!ctx.cache) ctx.enable_cache(1 << 20);
    }
    std::unique_ptr<session_store<str, str>> s(dynamic_cast<session_store<str, str>*>(b.build().release()));
    s->init(ctx);
    return s;
}

str text(const by_key& rows) {
    str out;
    for (const auto& r : rows)
        out += r.key.key + "@" + std::to_string(r.key.window.start) + "-" + std::to_string(r.key.window.end) + "=" +
               r.value + " ";
    return out;
}

by_key sorted(by_key rows) {
    std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
        return std::tuple(a.key.key, a.key.window, a.value) < std::tuple(b.key.key, b.key.window, b.value);
    });
    return rows;
}

/// Counts per key and 10 s tumbling window into a window store; forwards through the cache's
/// flush listener when the store caches, directly otherwise.
class windowed_count final : public processor<str, str, str, str> {
public:
    void init(context_type& ctx) override {
        processor::init(ctx);
        store_ = &ctx.get_state_store<window_store<str, str>>("counts");
        cached_ = store_->set_flush_listener(
            [&ctx](const windowed<str>& k, std::optional<str> nv, std::optional<str>, std::int64_t ts,
                   const headers& hdrs) {
                ctx.forward(
                    record<str, str>{k.key + "@" + std::to_string(k.window.start), nv.value_or("null"), ts, hdrs});
            },
            false);
    }
    void process(const record<str, str>& r) override {
        const std::int64_t start = r.timestamp - r.timestamp % 10000;
        auto old = store_->fetch(r.key, start);
        const str now = std::to_string(old ? std::stoi(*old) + 1 : 1);
        store_->put(r.key, now, start);
        if (!cached_) context().forward(record<str, str>{r.key + "@" + std::to_string(start), now, r.timestamp});
    }

private:
    window_store<str, str>* store_ = nullptr;
    bool cached_ = false;
};

topology windowed_count_topology(bool persistent, bool caching) {
    auto supplier = persistent ? stores::persistent_window_store("counts", 1h, 10s, false)
                               : stores::in_memory_window_store("counts", 1h, 10s, false);
    auto builder = stores::window_store_builder<str, str>(supplier);
    if (caching) builder.with_caching_enabled();
    topology t;
    t.add_source<str, str>("src", {"in"})
        .add_processor("count", [] { return std::make_unique<windowed_count>(); }, {"src"})
        .add_state_store(builder, {"count"})
        .add_sink<str, str>("sink", "out", {"count"});
    return t;
}

}  // namespace

TEST_CASE("window store cache: N puts to one windowed key between commits give one changelog and one flushed record") {
    for (bool persistent : {false, true}) {
        for (bool caching : {true, false}) {
            CAPTURE(persistent);
            CAPTURE(caching);
            test::driver_config cfg;
            cfg.commit_after_every_record = false;
            topology t = windowed_count_topology(persistent, caching);
            test::topology_test_driver driver(t, cfg);
            auto in = driver.create_input_topic<str, str>("in");
            auto out = driver.create_output_topic<str, str>("out");
            auto changelog = driver.create_output_topic<str, str>("test-app-counts-changelog");
            for (int i = 0; i < 5; ++i) in.pipe_input("k", "v", 20000 + i);
            if (caching) {
                CHECK(out.is_empty());
                CHECK(changelog.is_empty());
            }
            driver.commit();
            auto down = out.read_records_to_list();
            auto logged = changelog.read_records_to_list();
            if (caching) {
                REQUIRE(down.size() == 1);
                CHECK(down[0].key == "k@20000");
                CHECK(down[0].value == "5");
                CHECK(down[0].timestamp == 20004);
                REQUIRE(logged.size() == 1);
                CHECK(logged[0].value == "5");
                CHECK(logged[0].timestamp == 20004);
            } else {
                CHECK(down.size() == 5);
                CHECK(logged.size() == 5);
            }
            str expected_key = "k";
            detail::put_big_endian(std::int64_t{20000}, expected_key);
            detail::put_big_endian(std::int32_t{0}, expected_key);
            REQUIRE_FALSE(logged.empty());
            CHECK(logged.back().key == expected_key);
        }
    }
}

TEST_CASE("window store cache: reads and scans see cached puts and deletes; a commit writes them down") {
    for (bool persistent : {false, true}) {
        CAPTURE(persistent);
        test_store_context ctx;
        auto w = window_of(ctx, persistent, true);
        w->put("a", "a0", 0);
        w->put("b", "b0", 0);
        w->flush_cache();
        CHECK(ctx.changes.size() == 2);
        w->put("a", "A0", 0);       // overwrites the stored value in the cache
        w->remove("b", 0);          // a cached delete hides the stored window
        w->put("c", "c10", 10000);  // only cached
        CHECK(ctx.changes.size() == 2);
        CHECK(w->fetch("a", 0) == "A0");
        CHECK_FALSE(w->fetch("b", 0));
        CHECK(text(w->all().to_vector()) == "a@0-10000=A0 c@10000-20000=c10 ");
        CHECK(text(w->backward_all().to_vector()) == "c@10000-20000=c10 a@0-10000=A0 ");
        w->flush_cache();
        REQUIRE(ctx.changes.size() == 5);
        CHECK(ctx.changes[3].value == std::nullopt);  // b's delete reached the changelog
        CHECK(text(w->all().to_vector()) == "a@0-10000=A0 c@10000-20000=c10 ");
    }
}

TEST_CASE("window and session store cache: a cached scan returns what an uncached one does, element by element") {
    for (bool persistent : {false, true}) {
        CAPTURE(persistent);
        test_store_context plain_ctx, cached_ctx;
        cached_ctx.enable_cache(4000);  // small: evictions write parts of the cache down on the way
        auto plain = window_of(plain_ctx, persistent, false);
        auto cached = window_of(cached_ctx, persistent, true);
        auto plain_s = session_of(plain_ctx, persistent, false);
        auto cached_s = session_of(cached_ctx, persistent, true);
        std::mt19937 rng(7);
        const std::vector<str> keys{"a", "ab", "abc", "b", "ba", "c"};
        for (int i = 0; i < 400; ++i) {
            const str& k = keys[rng() % keys.size()];
            const std::int64_t start = static_cast<std::int64_t>(rng() % 40) * 10000;
            const bool del = rng() % 5 == 0;
            const str v = "v" + std::to_string(i);
            for (auto* w : {plain.get(), cached.get()}) {
                if (del) w->remove(k, start);
                else w->put(k, v, start);
            }
            const kstreams::window session{start, start + static_cast<std::int64_t>(rng() % 3) * 1000};
            for (auto* s : {plain_s.get(), cached_s.get()}) {
                if (del) s->remove({k, session});
                else s->put({k, session}, v);
            }
            if (i % 50 == 0) cached->flush_cache();
        }
        CHECK(text(cached->all().to_vector()) == text(plain->all().to_vector()));
        CHECK(text(cached->backward_all().to_vector()) == text(plain->backward_all().to_vector()));
        CHECK(text(cached->fetch(str("ab"), str("b"), 50000, 300000).to_vector()) ==
              text(plain->fetch(str("ab"), str("b"), 50000, 300000).to_vector()));
        CHECK(text(cached->backward_fetch(str("a"), str("ba"), 0, 200000).to_vector()) ==
              text(plain->backward_fetch(str("a"), str("ba"), 0, 200000).to_vector()));
        CHECK(text(cached_s->fetch(str("a"), str("b")).to_vector()) == text(plain_s->fetch(str("a"), str("b")).to_vector()));
        CHECK(text(cached_s->backward_find_sessions(str("ab"), str("c"), 100000, 300000).to_vector()) ==
              text(plain_s->backward_find_sessions(str("ab"), str("c"), 100000, 300000).to_vector()));
        CHECK(text(cached_s->find_sessions("ab", 0, INT64_MAX).to_vector()) ==
              text(plain_s->find_sessions("ab", 0, INT64_MAX).to_vector()));
        cached->flush_cache();
        cached_s->flush_cache();
        // After the flush the changelogs hold the same final state.
        CHECK(text(cached->all().to_vector()) == text(plain->all().to_vector()));
        CHECK(text(cached_s->fetch(std::nullopt, std::nullopt).to_vector()) ==
              text(plain_s->fetch(std::nullopt, std::nullopt).to_vector()));
    }
}

TEST_CASE("session store cache: a flush forwards new and old aggregates, and deletes with the old one") {
    for (bool persistent : {false, true}) {
        CAPTURE(persistent);
        test_store_context ctx;
        auto s = session_of(ctx, persistent, true);
        std::vector<str> seen;
        REQUIRE(s->set_flush_listener(
            [&](const windowed<str>& k, std::optional<str> nv, std::optional<str> ov, std::int64_t ts, const headers&) {
                seen.push_back(k.key + "[" + std::to_string(k.window.start) + "," + std::to_string(k.window.end) +
                               "] " + nv.value_or("null") + "/" + ov.value_or("null") + " @" + std::to_string(ts));
            },
            true));
        ctx.timestamp = 5;
        s->put({"k", {0, 10}}, "1");
        s->put({"k", {0, 10}}, "2");
        s->flush_cache();
        ctx.timestamp = 20;
        s->remove({"k", {0, 10}});
        s->put({"k", {0, 20}}, "3");
        s->remove({"never", {0, 0}});  // neither stored nor forwarded
        s->flush_cache();
        CHECK(seen == std::vector<str>{"k[0,10] 2/null @5", "k[0,10] null/2 @20", "k[0,20] 3/null @20"});
        REQUIRE(ctx.changes.size() == 3);
        CHECK(ctx.changes[1].value == std::nullopt);
        CHECK(ctx.changes[1].timestamp == 20);
    }
}

TEST_CASE("window store: caching stays off for stores that retain duplicates") {
    test_store_context ctx;
    ctx.enable_cache(1 << 20);
    auto b = stores::window_store_builder<str, str>(stores::in_memory_window_store("dups", 1h, 10s, true));
    b.with_caching_enabled();
    CHECK_FALSE(b.caching_enabled());
    auto s = b.build();
    auto& w = dynamic_cast<window_store<str, str>&>(*s);
    w.init(ctx);
    CHECK_FALSE(w.set_flush_listener([](auto&&...) {}, false));
    w.put("k", "x", 0);
    w.put("k", "y", 0);
    CHECK(ctx.changes.size() == 2);
}

TEST_CASE("window and session stores: operations are counted under the key-value store's metric names") {
    test_store_context ctx;
    metrics m;
    ctx.res.metrics = &m;
    auto w = window_of(ctx, false, false);
    w->put("k", "v", 0);
    w->remove("k", 0);
    w->fetch("k", 0);
    w->fetch("k", 0, 10).to_vector();
    w->flush();
    CHECK(m.counter("store.win.put") == 1);
    CHECK(m.counter("store.win.delete") == 1);
    CHECK(m.counter("store.win.get") == 1);
    CHECK(m.counter("store.win.range") == 1);
    CHECK(m.counter("store.win.flush") == 1);
    auto s = session_of(ctx, true, false);
    s->put({"k", {0, 1}}, "v");
    s->fetch_session("k", 0, 1);
    s->fetch("k").to_vector();
    CHECK(m.counter("store.sess.put") == 1);
    CHECK(m.counter("store.sess.get") == 1);
    CHECK(m.counter("store.sess.range") == 1);
}

// Kafka's InMemoryWindowStore iterates by window start, then key (both reversed backward, as the
// conformance scenarios window_store_in_memory_* show); its RocksDB store by segment, then key,
// then start. Each of ours must give its Kafka order, and both the same entries.
TEST_CASE("window store scan order: in-memory as Kafka's in-memory store, RocksDB as Kafka's RocksDB store") {
    test_store_context mem_ctx, rocks_ctx;
    auto mem = window_of(mem_ctx, false, false, 10min);  // segments of 5 min
    auto rocks = window_of(rocks_ctx, true, false, 10min);
    for (auto* w : {mem.get(), rocks.get()}) {
        w->put("b", "b0", 0);
        w->put("a", "a10", 10000);
        w->put("a", "a0", 0);
        w->put("b", "b400", 400000);
        w->put("a", "a400", 400000);
    }
    CHECK(text(mem->all().to_vector()) ==
          "a@0-10000=a0 b@0-10000=b0 a@10000-20000=a10 a@400000-410000=a400 b@400000-410000=b400 ");
    CHECK(text(mem->backward_all().to_vector()) ==
          "b@400000-410000=b400 a@400000-410000=a400 a@10000-20000=a10 b@0-10000=b0 a@0-10000=a0 ");
    CHECK(text(rocks->all().to_vector()) ==
          "a@0-10000=a0 a@10000-20000=a10 b@0-10000=b0 a@400000-410000=a400 b@400000-410000=b400 ");
    CHECK(text(rocks->backward_all().to_vector()) ==
          "b@400000-410000=b400 a@400000-410000=a400 b@0-10000=b0 a@10000-20000=a10 a@0-10000=a0 ");
    CHECK(text(mem->fetch(str("a"), str("b"), 0, 10000).to_vector()) == "a@0-10000=a0 b@0-10000=b0 a@10000-20000=a10 ");
    CHECK(text(rocks->fetch(str("a"), str("b"), 0, 10000).to_vector()) ==
          "a@0-10000=a0 a@10000-20000=a10 b@0-10000=b0 ");
    CHECK(sorted(mem->all().to_vector()) == sorted(rocks->all().to_vector()));
    CHECK(sorted(mem->fetch_all(0, 10000).to_vector()) == sorted(rocks->fetch_all(0, 10000).to_vector()));
}

// Kafka's InMemorySessionStore iterates by end, then key, then start descending (backward: end
// descending, key descending, start ascending); its RocksDB store by segment, key, end, start.
TEST_CASE("session store scan order: in-memory as Kafka's in-memory store, RocksDB as Kafka's RocksDB store") {
    test_store_context mem_ctx, rocks_ctx;
    auto mem = session_of(mem_ctx, false, false);
    auto rocks = session_of(rocks_ctx, true, false);
    for (auto* s : {mem.get(), rocks.get()}) {
        s->put({"b", {0, 10}}, "b1");
        s->put({"a", {5, 20}}, "a2");
        s->put({"a", {0, 20}}, "a1");
        s->put({"a", {30, 40}}, "a3");
    }
    CHECK(text(mem->fetch(str("a"), str("b")).to_vector()) == "b@0-10=b1 a@5-20=a2 a@0-20=a1 a@30-40=a3 ");
    CHECK(text(mem->backward_find_sessions(str("a"), str("b"), 0, INT64_MAX).to_vector()) ==
          "a@30-40=a3 a@0-20=a1 a@5-20=a2 b@0-10=b1 ");
    CHECK(text(rocks->fetch(str("a"), str("b")).to_vector()) == "a@0-20=a1 a@5-20=a2 a@30-40=a3 b@0-10=b1 ");
    CHECK(text(rocks->backward_find_sessions(str("a"), str("b"), 0, INT64_MAX).to_vector()) ==
          "b@0-10=b1 a@30-40=a3 a@5-20=a2 a@0-20=a1 ");
    CHECK(text(mem->fetch("a").to_vector()) == "a@5-20=a2 a@0-20=a1 a@30-40=a3 ");
    CHECK(sorted(mem->fetch(str("a"), str("b")).to_vector()) == sorted(rocks->fetch(str("a"), str("b")).to_vector()));
}

// A key that is a byte prefix of key_to: its entries `key ‖ time` can sort above `key_to ‖ 0xff..`
// when the time's bytes exceed the rest of key_to ("a" vs key_to "a\0\0\0" with time 0x0000018B..).
TEST_CASE("window and session key-range scans find keys that are byte prefixes of key_to") {
    const str zeros("a\0\0\0", 4);
    const std::int64_t t = 1700000000000;  // 00 00 01 8B ..: above "\0\0\0" ‖ 0xff..
    for (bool persistent : {false, true}) {
        for (bool caching : {false, true}) {
            CAPTURE(persistent);
            CAPTURE(caching);
            test_store_context ctx;
            auto w = window_of(ctx, persistent, caching);
            w->put("a", "a", t);
            w->put("ab", "ab", t);
            w->put(zeros, "z", t);
            w->put("b", "b", t);
            CHECK(w->fetch(str("a"), str("ab"), t - 1000, t + 1000).to_vector().size() == 3);  // a, a\0\0\0, ab
            CHECK(w->fetch(str("a"), zeros, t - 1000, t + 1000).to_vector().size() == 2);
            CHECK(w->fetch(std::nullopt, zeros, 0, INT64_MAX).to_vector().size() == 2);
            CHECK(w->backward_fetch(str("a"), zeros, t - 1000, t + 1000).to_vector().size() == 2);
            CHECK(w->fetch(zeros, zeros, 0, INT64_MAX).to_vector().size() == 1);
            w->flush_cache();
            CHECK(w->fetch(str("a"), zeros, t - 1000, t + 1000).to_vector().size() == 2);

            auto s = session_of(ctx, persistent, caching);
            s->put({"a", {t, t}}, "a");
            s->put({"ab", {t, t}}, "ab");
            s->put({zeros, {t, t}}, "z");
            CHECK(s->fetch(str("a"), str("ab")).to_vector().size() == 3);
            CHECK(s->fetch(str("a"), zeros).to_vector().size() == 2);
            CHECK(s->backward_find_sessions(std::nullopt, zeros, 0, INT64_MAX).to_vector().size() == 2);
            s->flush_cache();
            CHECK(s->fetch(str("a"), zeros).to_vector().size() == 2);
        }
    }
}
