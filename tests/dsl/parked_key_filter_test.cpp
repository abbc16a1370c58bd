// The stream-stream join's filter of parked keys: never "no" for a key the store holds (through
// growth, removals and the builds they lead to), a false-positive rate near its design, memory
// within its bound, and "maybe" for everything once the store holds more keys than it can answer for.
#include <doctest/doctest.h>

#include <cstdint>
#include <set>
#include <string>

#include <kstreams/dsl/detail/parked_key_filter.hpp>

using kstreams::dsl_detail::parked_key_filter;

namespace {
std::string key_of(std::int64_t i) { return "key-" + std::to_string(i); }

/// The part of a key-value store the filter's build reads: all() over the keys.
struct key_set {
    std::set<std::string> keys;
    struct entry {
        std::string key;
    };
    struct iterator {
        std::set<std::string>::const_iterator at, end;
        bool has_next() const { return at != end; }
        entry next() { return {*at++}; }
    };
    iterator all() const { return {keys.begin(), keys.end()}; }
};

/// A store of the keys key_of(0 .. n - 1), made up as they are read.
struct numbered_keys {
    std::int64_t n = 0;
    struct iterator {
        std::int64_t at, end;
        bool has_next() const { return at != end; }
        key_set::entry next() { return {key_of(at++)}; }
    };
    iterator all() const { return {0, n}; }
};


/// Puts `key` into the store and tells the filter, building it again when it asks to be.
void put(key_set& store, parked_key_filter& f, const std::string& key) {
    store.keys.insert(key);
    if (f.added(key)) f.build(store);
}

/// The share of keys the store does not hold that the filter answers "maybe" for.
double false_positive_rate(const parked_key_filter& f, std::int64_t from, std::int64_t n) {
    std::int64_t maybe = 0;
    for (std::int64_t i = from; i < from + n; ++i) maybe += f.may_hold("absent-" + std::to_string(i));
    return static_cast<double>(maybe) / static_cast<double>(n);
}
}  // namespace

TEST_CASE("parked key filter: every key the store holds is a maybe, through growth and builds") {
    key_set store;
    parked_key_filter f;
    f.build(store);
    for (std::int64_t i = 0; i < 200000; ++i) put(store, f, key_of(i));
    CHECK(f.builds() > 1);  // outgrew its first size
    CHECK(f.on());
    for (std::int64_t i = 0; i < 200000; ++i) REQUIRE(f.may_hold(key_of(i)));
    CHECK(false_positive_rate(f, 0, 100000) < 0.02);
    CHECK(f.bytes() <= parked_key_filter::max_bytes);
}

TEST_CASE("parked key filter: keys removed and added again stay maybes; removals do not wear the rate down") {
    key_set store;
    parked_key_filter f;
    f.build(store);
    // A window of 10,000 live keys sliding over 300,000: each removed once the window passed it.
    constexpr std::int64_t live = 10000, puts = 300000;
    for (std::int64_t i = 0; i < puts; ++i) {
        put(store, f, key_of(i));
        if (i >= live) store.keys.erase(key_of(i - live));
        if (i % 50000 == 0) put(store, f, key_of(i / 2));  // an old key back
    }
    for (const auto& k : store.keys) REQUIRE(f.may_hold(k));
    CHECK(false_positive_rate(f, 0, 100000) < 0.02);
    // Sized for twice the live keys: built again after as many puts as there are live keys, so a
    // scan reads at most about one key per key put.
    CHECK(f.builds() <= puts / live + 3);
    CHECK(f.bytes() < 64u * 1024);
}

TEST_CASE("parked key filter: a store holding more keys than its memory bound answers for makes every answer maybe") {
    const std::int64_t too_many = static_cast<std::int64_t>(parked_key_filter::max_bytes * 8 / parked_key_filter::bits_per_key);
    numbered_keys store{too_many};
    parked_key_filter f;
    f.build(store);
    CHECK_FALSE(f.on());
    CHECK(f.may_hold("absent"));
    CHECK(f.bytes() == 0);
    // Gone again below the bound: back on at the next build.
    store.n = 0;
    bool due = false;
    for (std::int64_t i = 0; i < too_many && !due; ++i) due = f.added(key_of(i));
    CHECK(due);
    f.build(store);
    CHECK(f.on());
    CHECK_FALSE(f.may_hold("absent"));
}
