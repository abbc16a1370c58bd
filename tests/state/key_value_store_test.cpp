// One suite, run against the in-memory and the RocksDB key-value store.
#include <doctest/doctest.h>

#include <fstream>
#include <map>

#include <kstreams/error.hpp>
#include <kstreams/state/stores.hpp>

#include "lib/state/in_memory_key_value_store.hpp"
#include "lib/state/lru_key_value_store.hpp"
#include "lib/state/corrupted_store.hpp"
#include "lib/state/rocksdb_key_value_store.hpp"
#include "tests/state/store_test_support.hpp"

using namespace kstreams;
using kstreams::test_support::test_store_context;

namespace {

struct in_memory_kind {
    static constexpr bool persistent = false;
    static std::unique_ptr<bytes_key_value_store> make(const std::string& name) {
        return std::make_unique<state::in_memory_key_value_store>(name);
    }
};
/// An LRU map (Stores.lruMap) large enough never to evict in the generic tests.
struct lru_kind {
    static constexpr bool persistent = false;
    static std::unique_ptr<bytes_key_value_store> make(const std::string& name) {
        return stores::lru_map(name, 1000)->get();
    }
};
struct rocksdb_kind {
    static constexpr bool persistent = true;
    static std::unique_ptr<bytes_key_value_store> make(const std::string& name) {
        return std::make_unique<state::rocksdb_key_value_store>(name);
    }
};

std::vector<std::pair<std::string, std::string>> drain(bytes_iterator& it) {
    std::vector<std::pair<std::string, std::string>> out;
    for (; it.valid(); it.next()) out.emplace_back(std::string(it.key()), std::string(it.value()));
    return out;
}

using kvs = std::vector<std::pair<std::string, std::string>>;

}  // namespace

TEST_CASE_TEMPLATE("key-value store: put, get, overwrite, delete", T, in_memory_kind, lru_kind, rocksdb_kind) {
    test_store_context ctx;
    auto store = T::make("kv");
    store->init(ctx);
    CHECK(store->is_open());
    CHECK(store->persistent() == T::persistent);
    CHECK_FALSE(store->get("a"));
    store->put("a", "1");
    CHECK(store->get("a") == "1");
    store->put("a", "2");
    CHECK(store->get("a") == "2");
    CHECK(store->put_if_absent("a", "3") == "2");
    CHECK(store->get("a") == "2");
    CHECK_FALSE(store->put_if_absent("b", "3"));
    CHECK(store->get("b") == "3");
    CHECK(store->remove("a") == "2");
    CHECK_FALSE(store->get("a"));
    CHECK_FALSE(store->remove("a"));
    store->erase("b");
    CHECK_FALSE(store->get("b"));
    store->erase("never-there");
    store->put_all({{"x", "1"}, {"y", "2"}, {"x", "3"}});
    CHECK(store->get("x") == "3");
    CHECK(store->get("y") == "2");
    store->put("empty", "");
    CHECK(store->get("empty") == "");
    CHECK(ctx.registered.size() == 1);
    store->close();
    CHECK_FALSE(store->is_open());
}

TEST_CASE_TEMPLATE("key-value store: get_into fills the caller's buffer; point operations after deletes and "
                   "re-inserts agree with ranges",
                   T, in_memory_kind, lru_kind, rocksdb_kind) {
    test_store_context ctx;
    auto store = T::make("kv");
    store->init(ctx);
    std::string buf = "left over from before, longer than any value";
    CHECK_FALSE(store->get_into("a", buf));
    store->put("a", "1");
    store->put("b", "2");
    store->put("c", "3");
    REQUIRE(store->get_into("b", buf));
    CHECK(buf == "2");
    store->put("b", "20");  // a put right after a get of the same key
    REQUIRE(store->get_into("b", buf));
    CHECK(buf == "20");
    store->erase("b");  // the key found last goes away
    CHECK_FALSE(store->get_into("b", buf));
    CHECK_FALSE(store->get("b"));
    store->put("b", "21");
    CHECK(store->get("b") == "21");
    CHECK(store->remove("a") == "1");
    store->put("a", "10");
    CHECK(store->put_if_absent("a", "11") == "10");
    auto all = store->range({}, false);
    CHECK(drain(*all) == kvs{{"a", "10"}, {"b", "21"}, {"c", "3"}});
    if constexpr (!T::persistent) CHECK(store->approximate_num_entries() == 3);  // RocksDB only estimates
    std::vector<restore_record> batch{{"c", std::nullopt, 1}, {"d", std::string_view("4"), 2}};
    ctx.registered.at(0).second(batch);
    CHECK_FALSE(store->get_into("c", buf));
    REQUIRE(store->get_into("d", buf));
    CHECK(buf == "4");
    auto after = store->range({}, true);
    CHECK(drain(*after) == kvs{{"d", "4"}, {"b", "21"}, {"a", "10"}});
}

TEST_CASE_TEMPLATE("key-value store: ranges are inclusive, ordered by unsigned bytes, reversible", T, in_memory_kind, lru_kind,
                   rocksdb_kind) {
    test_store_context ctx;
    auto store = T::make("kv");
    store->init(ctx);
    for (const std::string& k : std::vector<std::string>{"b", "a", "c", "d", std::string("\x80", 1), std::string("\xff", 1),
                                                    std::string("\x01", 1)})
        store->put(k, "v" + k);
    auto all = store->range({}, false);
    kvs got = drain(*all);
    REQUIRE(got.size() == 7);
    CHECK(got.front().first == std::string("\x01", 1));
    CHECK(got[1].first == "a");
    CHECK(got[5].first == std::string("\x80", 1));
    CHECK(got.back().first == std::string("\xff", 1));

    auto r = store->range({"b", "d"}, false);
    CHECK(drain(*r) == kvs{{"b", "vb"}, {"c", "vc"}, {"d", "vd"}});
    auto rr = store->range({"b", "d"}, true);
    CHECK(drain(*rr) == kvs{{"d", "vd"}, {"c", "vc"}, {"b", "vb"}});
    auto open_from = store->range({std::nullopt, std::string("b")}, false);
    CHECK(drain(*open_from) == kvs{{std::string("\x01", 1), std::string("v\x01", 2)}, {"a", "va"}, {"b", "vb"}});
    auto open_to = store->range({std::string("d"), std::nullopt}, true);
    CHECK(drain(*open_to) == kvs{{std::string("\xff", 1), std::string("v\xff", 2)},
                                 {std::string("\x80", 1), std::string("v\x80", 2)},
                                 {"d", "vd"}});
    auto between = store->range({"bb", "cc"}, false);
    CHECK(drain(*between) == kvs{{"c", "vc"}});
    auto inverted = store->range({"d", "b"}, false);
    CHECK_FALSE(inverted->valid());
}

TEST_CASE_TEMPLATE("key-value store: prefix scan", T, in_memory_kind, lru_kind, rocksdb_kind) {
    test_store_context ctx;
    auto store = T::make("kv");
    store->init(ctx);
    for (std::string k : {"ab", "a", "abc", "b", "aa"}) store->put(k, k);
    store->put(std::string("\xff\xff", 2), "x");
    store->put(std::string("\xff\xff\x01", 3), "y");
    auto it = store->prefix_scan("ab");
    CHECK(drain(*it) == kvs{{"ab", "ab"}, {"abc", "abc"}});
    auto ff = store->prefix_scan(std::string("\xff", 1));
    CHECK(drain(*ff).size() == 2);
    auto none = store->prefix_scan("z");
    CHECK_FALSE(none->valid());
}

TEST_CASE_TEMPLATE("key-value store: an open iterator does not see later writes", T, in_memory_kind, lru_kind, rocksdb_kind) {
    test_store_context ctx;
    auto store = T::make("kv");
    store->init(ctx);
    store->put("a", "1");
    store->put("c", "3");
    auto it = store->range({}, false);
    store->put("b", "2");
    store->erase("c");
    CHECK(drain(*it) == kvs{{"a", "1"}, {"c", "3"}});
    CHECK(store->approximate_num_entries() >= 1);
}

TEST_CASE_TEMPLATE("key-value store: restore callback applies a batch of puts and deletes", T, in_memory_kind, lru_kind,
                   rocksdb_kind) {
    test_store_context ctx;
    auto store = T::make("kv");
    store->init(ctx);
    store->put("gone", "x");
    REQUIRE(ctx.registered.size() == 1);
    std::vector<restore_record> batch{{"a", std::string_view("1"), 5}, {"b", std::string_view("2"), 6},
                                      {"a", std::string_view("3"), 7}, {"gone", std::nullopt, 8}};
    ctx.registered[0].second(batch);
    CHECK(store->get("a") == "3");
    CHECK(store->get("b") == "2");
    CHECK_FALSE(store->get("gone"));
}

TEST_CASE_TEMPLATE("typed key-value store over each byte store", T, in_memory_kind, lru_kind, rocksdb_kind) {
    test_store_context ctx;
    typed_key_value_store<std::string, std::int64_t> store(
        T::make("typed"),
        std::make_unique<serde_kv_codec<std::string, std::int64_t, serde<std::string>, serde<std::int64_t>>>(
            serde<std::string>{}, serde<std::int64_t>{}));
    store.init(ctx);
    store.put("a", 1);
    store.put("b", 2);
    store.put("c", -3);
    CHECK(store.get("c") == -3);
    CHECK(store.range(std::string("b"), std::nullopt).to_vector() ==
          std::vector<key_value<std::string, std::int64_t>>{{"b", 2}, {"c", -3}});
    CHECK(store.reverse_all().to_vector().front().key == "c");
    store.erase("a");
    CHECK_FALSE(store.get("a"));
    CHECK(store.prefix_scan(std::string("b")).to_vector().size() == 1);
}

TEST_CASE("rocksdb store: lives in <task dir>/rocksdb/<store> and keeps its data across reopen") {
    auto dir = test_support::fresh_temp_dir("rocks-reopen");
    {
        test_store_context ctx(dir);
        ctx.owns_dir = false;
        state::rocksdb_key_value_store store("counts");
        store.init(ctx);
        store.put("k", "v");
        store.close();
    }
    CHECK(std::filesystem::exists(dir / "rocksdb" / "counts" / "CURRENT"));
    test_store_context ctx(dir);
    state::rocksdb_key_value_store store("counts");
    store.init(ctx);
    CHECK(store.get("k") == "v");
    CHECK(ctx.discarded.empty());
}

TEST_CASE("rocksdb store: a corrupted directory is reported (corrupted_store_error naming it), never wiped by the store") {
    auto dir = test_support::fresh_temp_dir("rocks-corrupt");
    {
        test_store_context ctx(dir);
        ctx.owns_dir = false;
        state::rocksdb_key_value_store store("counts");
        store.init(ctx);
        store.put("k", "v");
        store.close();
    }
    std::size_t manifests = 0;
    for (const auto& e : std::filesystem::directory_iterator(dir / "rocksdb" / "counts")) {
        if (e.path().filename().string().starts_with("MANIFEST")) {
            std::ofstream(e.path(), std::ios::trunc) << "this is not a manifest";
            ++manifests;
        }
    }
    REQUIRE(manifests > 0);
    test_store_context ctx(dir);
    state::rocksdb_key_value_store store("counts");
    try {
        store.init(ctx);
        FAIL("a corrupted store opened");
    } catch (const state::corrupted_store_error& e) {
        CHECK(e.store() == "counts");
        CHECK(e.directory() == dir / "rocksdb" / "counts");
    }
    CHECK_FALSE(store.is_open());
    std::size_t still = 0;  // the wipe is the task manager's decision (tests/state/corruption_test.cpp)
    for (const auto& e : std::filesystem::directory_iterator(dir / "rocksdb" / "counts"))
        if (e.path().filename().string().starts_with("MANIFEST")) ++still;
    CHECK(still == manifests);
}

TEST_CASE("rocksdb store: use after close is an error naming the store") {
    test_store_context ctx;
    state::rocksdb_key_value_store store("my-store");
    store.init(ctx);
    auto it = store.range({}, false);
    store.close();
    CHECK_FALSE(it->valid());
    try {
        store.put("a", "b");
        FAIL("expected an error");
    } catch (const streams_error& e) {
        CHECK(std::string(e.what()).find("my-store") != std::string::npos);
    }
}

TEST_CASE("rocksdb store: without a state directory it says which store needs one") {
    test_store_context ctx{std::filesystem::path{}};
    ctx.owns_dir = false;
    state::rocksdb_key_value_store store("needs-dir");
    CHECK_THROWS_WITH_AS(store.init(ctx), doctest::Contains("needs-dir"), streams_error);
}

namespace {
/// Both ways of holding writes: hot entries, and the unwritten buffer of keys written once.
void held_writes_are_seen(bool once) {
    CAPTURE(once);
    auto dir = test_support::fresh_temp_dir("rocks-hot");
    {
        test_store_context ctx(dir);
        ctx.owns_dir = false;
        state::rocksdb_key_value_store store("hot");
        store.set_keys_written_once(once);
        store.init(ctx);
        store.put("b", "1");
        store.put("a", "0");
        store.erase("b");
        store.put("c", "2");
        CHECK_FALSE(store.get("b"));
        CHECK(store.get("c") == "2");
        // A scan sees every write before it, and none after (its view is taken when it starts).
        auto first = store.range({}, false);
        store.put("d", "3");
        store.put("a", "00");
        CHECK(drain(*first) == kvs{{"a", "0"}, {"c", "2"}});
        first.reset();
        // The next scan reuses the iterator and sees the latest state, with other bounds.
        CHECK(drain(*store.range({std::string("a"), std::string("c")}, true)) == kvs{{"c", "2"}, {"a", "00"}});
        CHECK(drain(*store.range({std::string("b"), std::nullopt}, false)) == kvs{{"c", "2"}, {"d", "3"}});
        CHECK(drain(*store.prefix_scan("d")) == kvs{{"d", "3"}});
        // Two scans at once, each with its own bounds and view.
        auto x = store.range({std::string("a"), std::string("a")}, false);
        store.put("a", "000");
        auto y = store.range({std::string("a"), std::string("b")}, false);
        CHECK(drain(*x) == kvs{{"a", "00"}});
        CHECK(drain(*y) == kvs{{"a", "000"}});
        // More than the hot limit: the map is emptied into RocksDB on the way, nothing is lost.
        const std::string big(1000, 'v');
        const int n = static_cast<int>(state::rocksdb_key_value_store::hot_bytes_limit / 1000) * 3;
        for (int i = 0; i < n; ++i) store.put("k" + std::to_string(i), big + std::to_string(i));
        for (int i = 0; i < n; i += 97) CHECK(store.get("k" + std::to_string(i)) == big + std::to_string(i));
        CHECK(drain(*store.prefix_scan("k")).size() == static_cast<std::size_t>(n));
        store.put_all({{"e", "4"}, {"f", "5"}});
        store.put("g", "6");
        store.close();  // writes what is held
    }
    test_store_context ctx(dir);
    state::rocksdb_key_value_store store("hot");
    store.set_keys_written_once(once);
    store.init(ctx);
    CHECK(store.get("a") == "000");
    CHECK_FALSE(store.get("b"));
    CHECK(store.get("e") == "4");
    CHECK(store.get("g") == "6");
    // A range delete and a restore batch take over from what is held for the same keys.
    store.put("s1", "x");
    store.put("s2", "y");
    CHECK(drain(*store.prefix_scan("s")).size() == 2);
    store.delete_range("s", "t");
    CHECK_FALSE(store.get("s1"));
    CHECK(drain(*store.prefix_scan("s")).empty());
    store.put("r", "held");
    REQUIRE(ctx.registered.size() == 1);
    std::vector<restore_record> batch{{"r", std::string_view("restored"), 1}, {"g", std::nullopt, 2}};
    ctx.registered[0].second(batch);
    CHECK(store.get("r") == "restored");
    CHECK_FALSE(store.get("g"));
    store.flush();
    CHECK(store.get("r") == "restored");
}
}  // namespace

TEST_CASE("rocksdb store: writes held in memory are what every read, scan and reopen sees") {
    held_writes_are_seen(false);
}

TEST_CASE("rocksdb store of keys written once: its unwritten writes are what every read, scan and reopen sees") {
    held_writes_are_seen(true);
}

TEST_CASE("rocksdb store of keys written once: any mix of writes, reads and scans answers as a map would") {
    // Against std::map, in small steps: overwrites and deletes of keys still unwritten (their last
    // write wins), scans started between writes (each sees what came before it), gets, flushes,
    // range deletes, and enough bytes to pass the buffer's bound several times.
    auto dir = test_support::fresh_temp_dir("rocks-once");
    test_store_context ctx(dir);
    state::rocksdb_key_value_store store("once");
    store.set_keys_written_once(true);
    store.init(ctx);
    std::map<std::string, std::string> expected;
    std::uint64_t x = 12345;
    const auto next = [&x](std::uint64_t n) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        return (x >> 33) % n;
    };
    const auto key = [&] { return "k" + std::to_string(next(300)); };
    for (int step = 0; step < 20000; ++step) {
        const auto op = next(100);
        if (op < 60) {
            const std::string k = key(), v = std::to_string(step) + std::string(next(1000), 'v');
            store.put(k, v);
            expected[k] = v;
        } else if (op < 75) {
            const std::string k = key();
            store.erase(k);
            expected.erase(k);
        } else if (op < 88) {
            const std::string k = key();
            const auto got = store.get(k);
            const auto it = expected.find(k);
            REQUIRE(got == (it == expected.end() ? std::nullopt : std::optional<std::string>(it->second)));
        } else if (op < 98) {
            std::string from = key(), to = key();
            if (to < from) std::swap(from, to);
            kvs want(expected.lower_bound(from), expected.upper_bound(to));
            auto it = store.range({from, to}, false);
            // Writes after a scan began are not in it.
            store.put(from, "after");
            REQUIRE(drain(*it) == want);
            expected[from] = "after";
        } else if (op < 99) {
            store.flush();
        } else {
            store.delete_range("k1", "k2");
            expected.erase(expected.lower_bound("k1"), expected.lower_bound("k2"));
        }
    }
    CHECK(drain(*store.range({}, false)) == kvs(expected.begin(), expected.end()));
    store.close();
    state::rocksdb_key_value_store reopened("once");
    reopened.set_keys_written_once(true);
    reopened.init(ctx);
    CHECK(drain(*reopened.range({}, false)) == kvs(expected.begin(), expected.end()));
}

TEST_CASE("lru_map: evicts the least recently read or written key past its size; a logged one writes the eviction as a tombstone") {
    test_store_context ctx;
    auto store = detail::wrap_key_value_layers(stores::lru_map("lru", 2)->get(), false, logging_config{true, {}});
    store->init(ctx);
    CHECK_FALSE(store->persistent());
    ctx.timestamp = 7;
    store->put("a", "1");
    store->put("b", "2");
    CHECK(store->get("a") == "1");  // a is now the most recent
    store->put("c", "3");           // evicts b
    CHECK_FALSE(store->get("b"));
    CHECK(store->get("a") == "1");
    CHECK(store->approximate_num_entries() == 2);
    CHECK(store->put_if_absent("c", "x") == "3");  // c the most recent: a goes next
    store->put("d", "4");
    CHECK_FALSE(store->get("a"));
    auto all = store->range({}, false);
    CHECK(drain(*all) == kvs{{"c", "3"}, {"d", "4"}});
    // Kafka's order: the evicted key's tombstone, then the put that evicted it.
    std::vector<std::string> log;
    for (const auto& c : ctx.changes) log.push_back(c.key + "=" + c.value.value_or("null") + "@" + std::to_string(c.timestamp));
    CHECK(log == std::vector<std::string>{"a=1@7", "b=2@7", "b=null@7", "c=3@7", "a=null@7", "d=4@7"});
    // Restoring evicts silently.
    REQUIRE(ctx.registered.size() == 1);
    const std::vector<restore_record> batch{{"x", "9", 1}, {"y", "8", 1}, {"z", "7", 1}};
    const std::size_t before = ctx.changes.size();
    ctx.registered[0].second(batch);
    CHECK(ctx.changes.size() == before);
    CHECK(store->get("z") == "7");
    CHECK(store->get("y") == "8");
    CHECK_FALSE(store->get("x"));
    CHECK_THROWS_AS(stores::lru_map("bad", -1), std::invalid_argument);
}

TEST_CASE("lru_map: a logged store of timestamped values evicts without a tombstone (Kafka's timestamped marker hides the map)") {
    test_store_context ctx;
    auto store = detail::wrap_key_value_layers(stores::lru_map("lru", 1)->get(), false, logging_config{true, {}}, true);
    store->init(ctx);
    const std::string stamp("\x00\x00\x00\x00\x00\x00\x00\x05", 8);
    store->put("a", stamp + "1");
    store->put("b", stamp + "2");  // evicts a
    CHECK_FALSE(store->get("a"));
    std::vector<std::string> log;
    for (const auto& c : ctx.changes) log.push_back(c.key + "=" + c.value.value_or("null") + "@" + std::to_string(c.timestamp));
    CHECK(log == std::vector<std::string>{"a=1@5", "b=2@5"});
}
