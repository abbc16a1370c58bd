// The kstreams side of the end-to-end benchmark; java/ holds the same app in Kafka Streams 4.4.0.
//
//   e2e_kstreams_app BOOTSTRAP APPLICATION_ID PIPELINE INPUT OUTPUT STATE_DIR
//
// PIPELINE is one of driver.cpp's (passthrough, stateless, count, count_nocache, hopping_count,
// hopping_recompute, kv_store, table_join, stream_join; "stateful" is count; "<pipeline>-eos" runs
// it under exactly_once_v2 with Kafka Streams' default commit interval for it, 100 ms). The table and the other stream of the
// joins are INPUT's companions "<INPUT>-table" and "<INPUT>-side". Prints STARTED right before
// kafka_streams::start() (the driver times from there) and runs until SIGTERM or SIGINT, then
// closes cleanly.
#include <cctype>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <thread>

#include <kstreams/dsl/streams_builder.hpp>
#include <kstreams/state/stores.hpp>
#include <kstreams/streams.hpp>

using namespace std::chrono_literals;
using key_type = std::int32_t;  // Kafka's IntegerSerde: 4 bytes big-endian

namespace {
volatile std::sig_atomic_t stop = 0;
void on_signal(int) { stop = 1; }

/// The Processor API workload: a get and a put on an uncached RocksDB store per record.
struct kv_counter : kstreams::processor<key_type, std::string, key_type, std::int64_t> {
    kstreams::key_value_store<key_type, std::int64_t>* store = nullptr;
    void init(context_type& ctx) override {
        processor::init(ctx);
        store = &ctx.get_state_store<kstreams::key_value_store<key_type, std::int64_t>>("kv");
    }
    void process(const kstreams::record<key_type, std::string>& r) override {
        const std::int64_t n = store->get(r.key).value_or(0) + 1;
        store->put(r.key, n);
        context().forward(kstreams::record<key_type, std::int64_t>{r.key, n, r.timestamp});
    }
};

/// Builds the pipeline; false for an unknown name.
bool build(kstreams::streams_builder& builder, const std::string& kind, const std::string& input,
           const std::string& output) {
    auto in = builder.stream<key_type, std::string>(input);
    if (kind == "passthrough") {
        in.to(output);
    } else if (kind == "stateless") {
        in.filter([](const key_type&, const std::string& v) { return !v.empty() && v.back() != '0'; })
            .map_values([](const std::string& v) {
                std::string up(v);
                for (char& c : up) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
                return up;
            })
            .to(output);
    } else if (kind == "count" || kind == "stateful" || kind == "count_nocache") {
        in.group_by_key().count().to_stream().to(output);
    } else if (kind == "hopping_count") {
        in.group_by_key()
            .windowed_by(kstreams::time_windows::of_size_with_no_grace(1000ms).advance_by(500ms))
            .count()
            .to_stream()
            .to(output);
    } else if (kind == "hopping_recompute") {  // issue J: the same windows, recovered by recomputation
        in.group_by_key()
            .windowed_by(kstreams::time_windows::of_size_with_no_grace(1000ms).advance_by(500ms))
            .count(kstreams::materialized<>::as("hopping-counts").with_recovery(kstreams::recovery::recompute))
            .to_stream()
            .to(output);
    } else if (kind == "kv_store") {
        builder.add_state_store(kstreams::stores::key_value_store_builder<key_type, std::int64_t>(
                                    kstreams::stores::persistent_key_value_store("kv"))
                                    .with_caching_disabled());
        in.process([] { return std::make_unique<kv_counter>(); }, kstreams::named::as("kv-counter"), {"kv"}).to(output);
    } else if (kind == "table_join") {
        auto table = builder.table<key_type, std::string>(input + "-table");
        in.left_join(table, [](const std::string& v, const std::optional<std::string>&) { return v; }).to(output);
    } else if (kind == "stream_join") {
        auto side = builder.stream<key_type, std::string>(input + "-side");
        // RocksDB window stores, as Kafka Streams' default (kstreams' stream_joined defaults to
        // memory stores, which is not Kafka's default).
        in.left_join(side, [](const std::string& v, const std::optional<std::string>&) { return v; },
                     kstreams::join_windows::of_time_difference_and_grace(10s, 30s),
                     kstreams::stream_joined<>{}.with_persistent_stores())
            .to(output);
    } else {
        return false;
    }
    return true;
}
}  // namespace

int main(int argc, char** argv) {
    if (argc != 7) {
        std::cerr << "usage: e2e_kstreams_app BOOTSTRAP APPLICATION_ID PIPELINE INPUT OUTPUT STATE_DIR\n";
        return 2;
    }
    std::signal(SIGTERM, on_signal);
    std::signal(SIGINT, on_signal);
    std::string kind = argv[3];
    const bool eos = kind.size() > 4 && kind.compare(kind.size() - 4, 4, "-eos") == 0;
    if (eos) kind.resize(kind.size() - 4);
    kstreams::streams_builder builder;
    if (!build(builder, kind, argv[4], argv[5])) {
        std::cerr << "e2e_kstreams_app: unknown pipeline " << kind << "\n";
        return 2;
    }
    const kstreams::topology topology = builder.build();

    // Kafka Streams' defaults (one thread, 10 MiB record cache, at-least-once) except the commit
    // interval: the counts leave the record cache at commits and the driver sees the end of the
    // stateful runs through the committed offsets, so both apps commit every second, not every 30 s.
    kstreams::streams_config c;
    c.application_id = argv[2];
    c.bootstrap_servers = argv[1];
    c.state_dir = argv[6];
    c.commit_interval = 1000ms;
    if (eos) {
        c.guarantee = kstreams::processing_guarantee::exactly_once_v2;
        c.commit_interval = kstreams::streams_config::default_commit_interval;  // 100 ms under EOS
    }
    c.replication_factor = 1;
    if (kind == "count_nocache") c.statestore_cache_max_bytes = 0;
    c.kafka["log_level"] = "3";
    kstreams::kafka_streams app(topology, c);
    std::cout << "STARTED" << std::endl;
    try {
        app.start();
    } catch (const std::exception& e) {
        std::cerr << "e2e_kstreams_app: " << e.what() << "\n";
        return 1;
    }
    while (!stop && app.state() != kstreams::streams_state::error) std::this_thread::sleep_for(20ms);
    if (std::getenv("E2E_COMMIT_METRICS")) {  // where an exactly-once run's time goes (PROFILES.md)
        const kstreams::metrics m = app.metrics();
        auto get = [&](const char* n) { auto it = m.all().find(n); return it == m.all().end() ? 0 : it->second; };
        std::cerr << "e2e_kstreams_app: commits " << get("commit-total") << " commit ms "
                  << get("commit-latency-ns-total") / 1000000 << " poll ms " << get("poll-latency-ns-total") / 1000000
                  << " process ms " << get("process-latency-ns-total") / 1000000 << "\n";
    }
    const bool ok = app.close(60s);
    return ok && app.state() == kstreams::streams_state::not_running ? 0 : 1;
}
