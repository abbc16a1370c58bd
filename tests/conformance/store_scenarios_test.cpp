// Conformance: Processor API scenarios on state stores. A processor writes each record to a
// window, session or key-value store, reads it back (point lookups, time and key ranges both
// ways, open bounds, prefix scans) and forwards what it read, so the output shows the store's
// order, retention and caching; written as java/.../StoreScenarios.java writes them.
#include <doctest/doctest.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <kstreams/dsl.hpp>

#include "harness.hpp"

using namespace kstreams;
using namespace conformance;
using str = std::string;
using ostr = std::optional<std::string>;
using i64 = std::int64_t;
using type::s;
using namespace std::chrono_literals;

namespace {

str show(const ostr& v) { return v.value_or("null"); }

str times(store_iterator<key_value<i64, str>> it) {
    str out;
    while (it.has_next()) {
        const auto kv = it.next();
        out += std::to_string(kv.key) + "=" + kv.value + " ";
    }
    return out;
}

str windows(store_iterator<key_value<windowed<str>, str>> it) {
    str out;
    while (it.has_next()) {
        const auto kv = it.next();
        out += kv.key.key + "@" + std::to_string(kv.key.window.start) + "-" + std::to_string(kv.key.window.end) + "=" +
               kv.value + " ";
    }
    return out;
}

str entries(key_value_iterator<str, str> it) {
    str out;
    while (it.has_next()) {
        const auto kv = it.next();
        out += kv.key + "=" + kv.value + " ";
    }
    return out;
}

/// Keeps the record being processed; emit forwards a read result keyed by what was read.
template <class Store>
struct reader : processor<str, str, str, str> {
    Store* w = nullptr;
    const record<str, str>* current = nullptr;
    void init(context_type& ctx) override {
        processor::init(ctx);
        w = &ctx.template get_state_store<Store>("w");
    }
    void emit(const str& what, const str& v) { context().forward(current->with_key(what).with_value(v)); }
};

/// "value@window start" ("null" deletes), then every kind of window read.
struct window_processor : reader<window_store<str, str>> {
    void process(const record<str, str>& r) override {
        current = &r;
        const auto p = split(r.value, '@');
        const i64 start = std::stoll(p[1]);
        if (p[0] == "null") w->remove(r.key, start);
        else w->put(r.key, p[0], start);
        emit("get", show(w->fetch(r.key, start)) + " " + show(w->fetch(r.key, 10)));
        emit("key", times(w->fetch(r.key, 0, 1000)) + "/ " + times(w->backward_fetch(r.key, 10, 40)));
        emit("range", windows(w->fetch(ostr("a"), ostr("ab"), 0, 1000)) + "/ " +
                          windows(w->backward_fetch(ostr("a"), ostr("ab"), 0, 1000)));
        emit("open", windows(w->fetch(std::nullopt, ostr("aa"), 0, 1000)) + "/ " +
                         windows(w->backward_fetch(ostr("ab"), std::nullopt, 10, 100)));
        emit("all", windows(w->fetch_all(10, 40)) + "/ " + windows(w->backward_fetch_all(0, 1000)));
        emit("every", windows(w->all()) + "/ " + windows(w->backward_all()));
    }
};

/// "value@start-end" ("null" removes), then every kind of session read.
struct session_processor : reader<session_store<str, str>> {
    void process(const record<str, str>& r) override {
        current = &r;
        const auto p = split(r.value, '@');
        const auto se = split(p[1], '-');
        const windowed<str> sw{r.key, {std::stoll(se[0]), std::stoll(se[1])}};
        if (p[0] == "null") w->remove(sw);
        else w->put(sw, p[0]);
        emit("get", show(w->fetch_session(r.key, sw.window.start, sw.window.end)));
        emit("key", windows(w->find_sessions(r.key, 0, 1000)) + "/ " + windows(w->find_sessions(r.key, 15, 30)));
        emit("range", windows(w->find_sessions(ostr("a"), ostr("ab"), 0, 1000)) + "/ " +
                          windows(w->find_sessions(ostr("a"), ostr("ab"), 10, 60)));
        emit("fetch", windows(w->fetch(r.key)));
        emit("fetch_range", windows(w->fetch(ostr("aa"), ostr("b"))) + "/ " +
                                windows(w->fetch(ostr("a"), ostr("aa"))));
    }
};

/// value ("null" deletes, "?v" puts if absent), then every kind of key-value read.
struct kv_processor : reader<key_value_store<str, str>> {
    void process(const record<str, str>& r) override {
        current = &r;
        if (r.value == "null") emit("delete", show(w->remove(r.key)));
        else if (r.value.starts_with("?")) emit("absent", show(w->put_if_absent(r.key, r.value.substr(1))));
        else w->put(r.key, r.value);
        emit("get", show(w->get(r.key)));
        emit("range", entries(w->range(std::nullopt, ostr("ab"))) + "/ " + entries(w->range(ostr("ab"), std::nullopt)) +
                          "/ " + entries(w->range(ostr("b"), ostr("a"))));
        emit("reverse", entries(w->reverse_range(ostr("a"), ostr("b"))) + "/ " +
                            entries(w->reverse_range(std::nullopt, std::nullopt)));
        emit("prefix", entries(w->prefix_scan(str("a"))) + "/ " + entries(w->prefix_scan(str("ab"))));
        emit("all", entries(w->all()) + "/ " + entries(w->reverse_all()));
    }
};

struct input {
    const char* key;
    const char* value;
    i64 ts;
};

template <class Processor, class Builder>
void run(const str& name, Builder store, const std::vector<input>& inputs) {
    topology t;
    t.add_source<str, str>("src", {"in"});
    t.add_processor("proc", [] { return std::make_unique<Processor>(); }, {"src"});
    t.add_state_store(std::move(store), {"proc"});
    t.add_sink<str, str>("sink", "out", {"proc"});
    harness h(name, std::move(t));
    h.input("in", s, s).output("out", s, s);
    for (const auto& in : inputs) h.pipe("in", S(in.key), S(in.value), in.ts);
    h.finish();
}

const std::vector<input> window_inputs{
    {"a", "1@10", 10},      {"ab", "2@10", 10},  {"b", "3@5", 5},       {"a", "4@30", 30},     {"a", "5@10", 11},
    {"ab", "null@10", 12},  {"aa", "6@40", 40},  {"a", "7@70", 70},     {"ab", "8@15", 15},    {"b", "9@100", 100},
    {"a", "10@100", 100},   {"a", "11@100", 101}, {"a", "null@100", 102},
};

const std::vector<input> session_inputs{
    {"a", "s1@0-10", 10},     {"ab", "s2@5-5", 5},     {"b", "s3@20-30", 30},     {"a", "s4@20-25", 25},
    {"a", "null@0-10", 26},   {"aa", "s5@12-18", 18},  {"a", "s6@100-110", 110},  {"ab", "s7@30-40", 40},
    {"a", "s8@100-110", 111}, {"b", "s9@50-70", 70},   {"ab", "s10@60-60", 60},
};

const std::vector<input> kv_inputs{
    {"b", "1", 1},   {"a", "2", 2},    {"ab", "3", 3},     {"é", "4", 4},      {"Z", "5", 5},
    {"", "6", 6},    {"a", "?7", 7},   {"aa", "?8", 8},    {"ab", "null", 9},  {"zz", "10", 10},
    {"ab", "?9", 11}, {"aé", "10", 12}, {"a", "11", 13},
};

void window_scenario(const str& kind, const str& mode) {
    const bool dups = mode == "duplicates";
    auto sup = kind == "persistent" ? stores::persistent_window_store("w", 50ms, 10ms, dups)
                                    : stores::in_memory_window_store("w", 50ms, 10ms, dups);
    auto b = stores::window_store_builder<str, str>(sup);
    if (mode == "cached") b.with_caching_enabled();
    run<window_processor>("window_store_" + kind + "_" + mode, std::move(b), window_inputs);
}

void session_scenario(const str& kind, const str& mode) {
    auto sup = kind == "persistent" ? stores::persistent_session_store("w", 50ms) : stores::in_memory_session_store("w", 50ms);
    auto b = stores::session_store_builder<str, str>(sup);
    if (mode == "cached") b.with_caching_enabled();
    run<session_processor>("session_store_" + kind + "_" + mode, std::move(b), session_inputs);
}

void kv_scenario(const str& kind, const str& mode) {
    auto sup = kind == "persistent"  ? stores::persistent_key_value_store("w")
               : kind == "in_memory" ? stores::in_memory_key_value_store("w")
                                     : stores::persistent_timestamped_key_value_store("w");
    auto b = stores::key_value_store_builder<str, str>(sup);
    if (mode == "cached") b.with_caching_enabled();
    run<kv_processor>("kv_store_" + kind + "_" + mode, std::move(b), kv_inputs);
}

}  // namespace

TEST_SUITE("conformance") {

TEST_CASE("window_store_persistent_uncached") { window_scenario("persistent", "uncached"); }
TEST_CASE("window_store_persistent_cached") { window_scenario("persistent", "cached"); }
TEST_CASE("window_store_persistent_duplicates") { window_scenario("persistent", "duplicates"); }
TEST_CASE("window_store_in_memory_uncached") { window_scenario("in_memory", "uncached"); }
TEST_CASE("window_store_in_memory_cached") { window_scenario("in_memory", "cached"); }
TEST_CASE("window_store_in_memory_duplicates") { window_scenario("in_memory", "duplicates"); }
TEST_CASE("session_store_persistent_uncached") { session_scenario("persistent", "uncached"); }
TEST_CASE("session_store_persistent_cached") { session_scenario("persistent", "cached"); }
TEST_CASE("session_store_in_memory_uncached") { session_scenario("in_memory", "uncached"); }
TEST_CASE("session_store_in_memory_cached") { session_scenario("in_memory", "cached"); }
TEST_CASE("kv_store_persistent_uncached") { kv_scenario("persistent", "uncached"); }
TEST_CASE("kv_store_persistent_cached") { kv_scenario("persistent", "cached"); }
TEST_CASE("kv_store_in_memory_uncached") { kv_scenario("in_memory", "uncached"); }
TEST_CASE("kv_store_in_memory_cached") { kv_scenario("in_memory", "cached"); }
TEST_CASE("kv_store_timestamped_uncached") { kv_scenario("timestamped", "uncached"); }
TEST_CASE("kv_store_timestamped_cached") { kv_scenario("timestamped", "cached"); }

}  // TEST_SUITE
