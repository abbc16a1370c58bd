// The record cache: updates to a key between commits coalesce into one changelog record and one
// downstream record; with the cache disabled every update goes through.
#include <doctest/doctest.h>

#include <kstreams/processor.hpp>
#include <kstreams/state/stores.hpp>
#include <kstreams/test/topology_test_driver.hpp>
#include <kstreams/topology.hpp>

#include "lib/state/record_cache.hpp"
#include "lib/state/store_resources.hpp"

using namespace kstreams;

namespace {

/// A count over a timestamped store that forwards through the cache's flush listener when the
/// store caches (as Kafka's aggregations with TimestampedTupleForwarder), directly otherwise.
class caching_count final : public processor<std::string, std::string, std::string, std::int64_t> {
public:
    void init(context_type& ctx) override {
        processor::init(ctx);
        store_ = &ctx.get_state_store<timestamped_key_value_store<std::string, std::int64_t>>("counts");
        cached_ = store_->set_flush_listener(
            [&ctx](const std::string& k, std::optional<value_and_timestamp<std::int64_t>> nv,
                   std::optional<value_and_timestamp<std::int64_t>>, std::int64_t ts, const headers& hdrs) {
                record<std::string, std::int64_t> r;
                r.headers = hdrs;
                r.key = k;
                r.value = nv ? nv->value : 0;
                r.value_null = !nv;
                r.timestamp = nv ? nv->timestamp : ts;
                ctx.forward(r);
            },
            false);
    }
    void process(const record<std::string, std::string>& r) override {
        auto old = store_->get(r.key);
        value_and_timestamp<std::int64_t> now{old ? old->value + 1 : 1, std::max(r.timestamp, old ? old->timestamp : 0)};
        store_->put(r.key, now);
        if (!cached_) context().forward(record<std::string, std::int64_t>{r.key, now.value, now.timestamp});
    }

private:
    timestamped_key_value_store<std::string, std::int64_t>* store_ = nullptr;
    bool cached_ = false;
};

topology count_topology(bool persistent, bool caching) {
    auto supplier = persistent ? stores::persistent_timestamped_key_value_store("counts")
                               : stores::in_memory_key_value_store("counts");
    auto builder = stores::timestamped_key_value_store_builder<std::string, std::int64_t>(supplier);
    if (caching) builder.with_caching_enabled();
    topology t;
    t.add_source<std::string, std::string>("src", {"in"})
        .add_processor("count", [] { return std::make_unique<caching_count>(); }, {"src"})
        .add_state_store(builder, {"count"})
        .add_sink<std::string, std::int64_t>("sink", "out", {"count"});
    return t;
}

}  // namespace

TEST_CASE("record cache: N updates of one key between commits give one changelog and one downstream record") {
    for (bool persistent : {false, true}) {
        CAPTURE(persistent);
        topology t = count_topology(persistent, true);
        test::driver_config cfg;
        cfg.commit_after_every_record = false;
        test::topology_test_driver driver(t, cfg);
        auto in = driver.create_input_topic<std::string, std::string>("in");
        auto out = driver.create_output_topic<std::string, std::int64_t>("out");
        auto changelog = driver.create_output_topic<std::string, std::int64_t>("test-app-counts-changelog");
        for (int i = 0; i < 5; ++i) in.pipe_input("k", "v", 100 + i);
        CHECK(out.is_empty());
        CHECK(changelog.is_empty());
        driver.commit();
        auto down = out.read_records_to_list();
        REQUIRE(down.size() == 1);
        CHECK(down[0].key == "k");
        CHECK(down[0].value == 5);
        CHECK(down[0].timestamp == 104);
        auto logged = changelog.read_records_to_list();
        REQUIRE(logged.size() == 1);
        // The changelog holds the plain value; the stored timestamp is the record's timestamp.
        CHECK(logged[0].value == 5);
        CHECK(logged[0].timestamp == 104);
        CHECK(driver.get_key_value_store<std::string, value_and_timestamp<std::int64_t>>("counts").get("k") ==
              value_and_timestamp<std::int64_t>{5, 104});
    }
}

TEST_CASE("record cache: a flushed entry carries the timestamp and headers of the record that last wrote it") {
    topology t = count_topology(true, true);
    test::driver_config cfg;
    cfg.commit_after_every_record = false;
    test::topology_test_driver driver(t, cfg);
    auto in = driver.create_input_topic<std::string, std::string>("in");
    auto out = driver.create_output_topic<std::string, std::int64_t>("out");
    auto changelog = driver.create_output_topic<std::string, std::int64_t>("test-app-counts-changelog");
    in.pipe_record({"k", "v", 1, headers{{"h", "1"}}});
    in.pipe_record({"j", "v", 2, headers{{"h", "2"}, {"g", std::nullopt}}});
    in.pipe_record({"k", "v", 3, headers{{"h", "3"}}});
    in.pipe_record({"j", "v", 4, {}});
    driver.commit();
    auto down = out.read_records_to_list();
    REQUIRE(down.size() == 2);
    CHECK(down[0].key == "k");
    CHECK(down[0].timestamp == 3);
    CHECK(down[0].headers == headers{{"h", "3"}});
    CHECK(down[1].key == "j");
    CHECK(down[1].timestamp == 4);
    CHECK(down[1].headers.empty());
    // Changelog records carry no headers, as Kafka's.
    for (const auto& r : changelog.read_records_to_list()) CHECK(r.headers.empty());
}

TEST_CASE("record cache: disabled by size 0 or by the builder, every update goes through") {
    for (int variant = 0; variant < 2; ++variant) {
        CAPTURE(variant);
        topology t = count_topology(true, variant == 0);
        test::driver_config cfg;
        cfg.commit_after_every_record = false;
        if (variant == 0) cfg.cache_max_bytes = 0;
        test::topology_test_driver driver(t, cfg);
        auto in = driver.create_input_topic<std::string, std::string>("in");
        auto out = driver.create_output_topic<std::string, std::int64_t>("out");
        auto changelog = driver.create_output_topic<std::string, std::int64_t>("test-app-counts-changelog");
        for (int i = 0; i < 5; ++i) in.pipe_input("k", "v", 100 + i);
        driver.commit();
        CHECK(out.read_values_to_list() == std::vector<std::int64_t>{1, 2, 3, 4, 5});
        CHECK(changelog.read_values_to_list() == std::vector<std::int64_t>{1, 2, 3, 4, 5});
    }
}

TEST_CASE("record cache: a full cache evicts least recently used entries and forwards them") {
    topology t = count_topology(false, true);
    test::driver_config cfg;
    cfg.commit_after_every_record = false;
    cfg.cache_max_bytes = 3 * (1 + 16 + 64);  // three one-byte keys with timestamped 8-byte values
    test::topology_test_driver driver(t, cfg);
    auto in = driver.create_input_topic<std::string, std::string>("in");
    auto out = driver.create_output_topic<std::string, std::int64_t>("out");
    in.pipe_input("a", "v", 1);
    in.pipe_input("b", "v", 2);
    in.pipe_input("c", "v", 3);
    in.pipe_input("a", "v", 4);
    CHECK(out.is_empty());
    in.pipe_input("d", "v", 5);  // evicts b, the least recently used: all dirty entries flush
    auto flushed = out.read_key_values_to_list();
    REQUIRE(flushed.size() == 4);
    CHECK(flushed[0] == key_value<std::string, std::int64_t>{"b", 1});  // the evicted entry first
    CHECK(flushed[1] == key_value<std::string, std::int64_t>{"c", 1});  // then in order of last write
    CHECK(flushed[2] == key_value<std::string, std::int64_t>{"a", 2});
    CHECK(flushed[3] == key_value<std::string, std::int64_t>{"d", 1});
    in.pipe_input("d", "v", 6);
    driver.commit();
    CHECK(out.read_key_values_to_list() == std::vector<key_value<std::string, std::int64_t>>{{"d", 2}});
}

TEST_CASE("record cache: range scans see cached writes and cached deletes") {
    topology t;
    struct writer final : processor<std::string, std::string, std::string, std::string> {
        void init(context_type& ctx) override {
            processor::init(ctx);
            store = &ctx.get_state_store<key_value_store<std::string, std::string>>("kv");
        }
        void process(const record<std::string, std::string>& r) override {
            if (r.value == "del") store->erase(r.key);
            else store->put(r.key, r.value);
            std::string all;
            for (const auto& kv : store->all()) all += kv.key + "=" + kv.value + ";";
            std::string rev;
            for (const auto& kv : store->reverse_all()) rev += kv.key + ";";
            context().forward(record<std::string, std::string>{"all", all + "|" + rev, r.timestamp});
        }
        key_value_store<std::string, std::string>* store = nullptr;
    };
    t.add_source<std::string, std::string>("src", {"in"})
        .add_processor("w", [] { return std::make_unique<writer>(); }, {"src"})
        .add_state_store(stores::key_value_store_builder<std::string, std::string>(
                             stores::persistent_key_value_store("kv"))
                             .with_caching_enabled(),
                         {"w"})
        .add_sink<std::string, std::string>("sink", "out", {"w"});
    test::driver_config cfg;
    cfg.commit_after_every_record = false;
    test::topology_test_driver driver(t, cfg);
    auto in = driver.create_input_topic<std::string, std::string>("in");
    auto out = driver.create_output_topic<std::string, std::string>("out");
    in.pipe_input("b", "1", 0);
    in.pipe_input("a", "2", 0);
    driver.commit();  // a and b now in RocksDB
    in.pipe_input("c", "3", 0);
    in.pipe_input("a", "del", 0);
    in.pipe_input("b", "4", 0);
    auto values = out.read_values_to_list();
    CHECK(values.back() == "b=4;c=3;|c;b;");
}

TEST_CASE("record cache: discarding a task's namespaces drops their entries unflushed; other tasks keep theirs") {
    state::record_cache cache(1 << 20);
    std::vector<std::string> flushed_1, flushed_10;
    auto collect = [](std::vector<std::string>& into) {
        return [&into](std::vector<state::record_cache::dirty_entry>& entries) {
            for (const auto& e : entries) into.push_back(e.key);
        };
    };
    // Task 0_1's prefix must not match task 0_10's namespaces.
    auto& of_1 = cache.add(detail::cache_namespace(task_id{0, 1}, "counts"), collect(flushed_1));
    auto& of_10 = cache.add(detail::cache_namespace(task_id{0, 10}, "counts"), collect(flushed_10));
    cache.put(of_1, "k", std::string_view("1"), true, {0});
    cache.put(of_10, "k", std::string_view("1"), true, {0});
    cache.discard(detail::cache_namespace(task_id{0, 1}, ""));
    CHECK(cache.get(of_1, "k") == nullptr);
    CHECK(cache.size_bytes() == state::record_cache::entry_bytes(1, 1));
    cache.flush(of_1);
    cache.flush(of_10);
    CHECK(flushed_1.empty());
    CHECK(flushed_10 == std::vector<std::string>{"k"});
}

TEST_CASE("record cache: dirty keys flush in order of last write, again after a flush reuses their slots") {
    state::record_cache cache(1 << 20);
    std::vector<std::string> flushed;
    auto& ns = cache.add("0_0-s", [&](std::vector<state::record_cache::dirty_entry>& entries) {
        for (const auto& e : entries) flushed.push_back(e.key + "=" + e.value.value_or("null"));
    });
    cache.put(ns, "a", "1", true, {1});
    cache.put(ns, "b", "1", true, {2});
    cache.put(ns, "a", "2", true, {3});  // re-dirtied: moves behind b
    cache.put(ns, "c", "1", false, {4});  // clean: never flushed
    cache.flush(ns);
    CHECK(flushed == std::vector<std::string>{"b=1", "a=2"});
    flushed.clear();
    cache.flush(ns);
    CHECK(flushed.empty());
    cache.put(ns, "c", std::nullopt, true, {5});
    cache.put(ns, "b", "2", true, {6});
    cache.put(ns, "d", "1", true, {7});
    REQUIRE(cache.get(ns, "b") != nullptr);
    cache.put(ns, "b", "3", true, {8});  // a put right after a get of the same key
    cache.flush(ns);
    CHECK(flushed == std::vector<std::string>{"c=null", "d=1", "b=3"});
    CHECK(cache.get(ns, "c") == nullptr);  // a flushed delete leaves the cache
    REQUIRE(cache.get(ns, "b") != nullptr);
    CHECK(*cache.get(ns, "b") == std::optional<std::string>("3"));
    CHECK(ns.size() == 3);
    cache.remove(ns);
    CHECK(cache.size_bytes() == 0);
}
