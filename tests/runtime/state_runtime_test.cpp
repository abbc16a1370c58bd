// State in the Kafka runtime, on the embedded cluster: the global state restore listener (Kafka's
// setGlobalStateRestoreListener) sees a restore after a state-directory wipe, and the RocksDB
// memory settings of streams_config reach the stores.
#include <doctest/doctest.h>

#include <filesystem>
#include <mutex>
#include <kstreams/embedded_cluster.hpp>
#include <kstreams/state/restore_listener.hpp>
#include <kstreams/state/rocksdb_config.hpp>
#include <kstreams/streams.hpp>
#include <kstreams/test/topic_client.hpp>

#include "tests/support/await_records.hpp"
#include "tests/support/word_count_topology.hpp"
#include "tests/support/process_state_dir.hpp"

using namespace kstreams;
using namespace std::chrono_literals;

namespace {

struct recording_listener final : state_restore_listener {
    struct start {
        std::string topic, store;
        std::int32_t partition;
        std::int64_t from, to;
    };
    std::mutex m;
    std::vector<start> starts;
    std::int64_t batches = 0, batch_records = 0, last_batch_offset = -1, ended = -1, ends = 0;

    void on_restore_start(std::string_view topic, std::int32_t partition, std::string_view store, std::int64_t from,
                          std::int64_t to) override {
        std::lock_guard lock(m);
        starts.push_back({std::string(topic), std::string(store), partition, from, to});
    }
    void on_batch_restored(std::string_view, std::int32_t, std::string_view, std::int64_t end,
                           std::int64_t n) override {
        std::lock_guard lock(m);
        ++batches;
        batch_records += n;
        last_batch_offset = end;
    }
    void on_restore_end(std::string_view, std::int32_t, std::string_view, std::int64_t total) override {
        std::lock_guard lock(m);
        ++ends;
        ended = total;
    }
};

struct counting_setter final : rocksdb_config_setter {
    std::mutex m;
    std::vector<std::string> configured;
    void set_config(const std::string& store, rocksdb::Options&) override {
        std::lock_guard lock(m);
        configured.push_back(store);
    }
};

topology persistent_word_count() {
    topology t;
    t.add_source<std::string, std::string>("lines", {"restore-lines"})
        .add_processor("count", [] { return std::make_unique<test::split_and_count>(); }, {"lines"})
        .add_state_store(stores::key_value_store_builder<std::string, std::int64_t>(
                             stores::persistent_key_value_store("counts")),
                         {"count"})
        .add_sink<std::string, std::int64_t>("counts-out", "restore-counts", {"count"});
    return t;
}

}  // namespace

KSTREAMS_CO_TEST_CASE("restore listener: after a state-dir wipe it sees start, batches and end of the store's restore") {
    embedded_cluster cluster;
    cluster.create_topic("restore-lines", 1);
    cluster.create_topic("restore-counts", 1);
    streams_config cfg;
    cfg.application_id = "restore-listener";
    cfg.bootstrap_servers = cluster.bootstrap_servers();
    cfg.commit_interval = 200ms;
    cfg.state_dir = kstreams::test::process_state_dir("kstreams-restore-listener");
    cfg.consumer["session.timeout.ms"] = "6000";
    cfg.kafka["log_level"] = "3";
    cfg.statestore_cache_max_bytes = 0;  // every update is one changelog record
    auto setter = std::make_shared<counting_setter>();
    cfg.rocksdb.config_setter = setter;
    std::filesystem::remove_all(cfg.state_dir);
    auto topo = persistent_word_count();
    test::topic_reader reader(cluster.bootstrap_servers(), {"restore-counts"});
    {
        kafka_streams app(topo, cfg);
        app.start();
        test::topic_writer writer(cluster.bootstrap_servers());
        for (const char* line : {"a b c", "a b", "a"}) writer.send("restore-lines", std::nullopt, std::string(line));
        writer.flush();
        auto recs = co_await test::next_records(reader, 6, 30s);
        CHECK(recs.size() == 6);
        CHECK(app.close(30s));
    }
    std::filesystem::remove_all(cfg.state_dir);

    auto listener = std::make_shared<recording_listener>();
    kafka_streams app(topo, cfg);
    app.set_global_state_restore_listener(listener);
    app.start();
    CHECK_THROWS_AS(app.set_global_state_restore_listener(listener), std::logic_error);
    test::topic_writer writer(cluster.bootstrap_servers());
    writer.send("restore-lines", std::nullopt, std::string("a"));
    writer.flush();
    auto recs = co_await test::next_records(reader, 1, 30s);
    REQUIRE(recs.size() == 1);
    CHECK(*recs[0].key == "a");
    CHECK(recs[0].value_as<std::int64_t>() == 4);  // the count came back from the changelog
    CHECK(app.close(30s));
    std::filesystem::remove_all(cfg.state_dir);

    {
        std::lock_guard lock(setter->m);
        CHECK(setter->configured == std::vector<std::string>{"counts", "counts"});  // once per app run
    }
    std::lock_guard lock(listener->m);
    REQUIRE(listener->starts.size() == 1);
    const auto& s = listener->starts[0];
    CHECK(s.topic == "restore-listener-counts-changelog");
    CHECK(s.store == "counts");
    CHECK(s.partition == 0);
    CHECK(s.from == 0);
    CHECK(s.to == 6);  // six updates were logged
    CHECK(listener->batches >= 1);
    CHECK(listener->batch_records == 6);
    CHECK(listener->last_batch_offset == 5);
    CHECK(listener->ends == 1);
    CHECK(listener->ended == 6);
}

TEST_CASE("streams_config reads the RocksDB memory keys") {
    auto c = streams_config::from_properties(
        {{"rocksdb.block.cache.bytes", "1048576"}, {"rocksdb.write.buffer.manager.bytes", "0"}});
    CHECK(c.rocksdb.block_cache_bytes == 1048576);
    CHECK(c.rocksdb.write_buffer_manager_bytes == 0);
    CHECK(c.kafka.empty());  // not passed on to librdkafka
    CHECK(streams_config{}.rocksdb.block_cache_bytes == rocksdb_memory_config{}.block_cache_bytes);
    CHECK_THROWS_WITH_AS(streams_config::from_properties({{"rocksdb.block.cache.bytes", "lots"}}),
                         doctest::Contains("rocksdb.block.cache.bytes"), std::invalid_argument);
}
