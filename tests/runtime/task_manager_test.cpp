// The task manager through fake ports (no Kafka): restoration advances a bounded batch per step and
// a restoring task does not process while the others do; assignments and revocations in the middle
// of a restore; the commit protocol's order (caches, producer, offsets, checkpoint); failing commits.
#include <doctest/doctest.h>

#include <algorithm>
#include <deque>
#include <filesystem>
#include <map>
#include <memory>
#include <set>

#include <kstreams/dsl.hpp>
#include <kstreams/error.hpp>
#include <kstreams/test/topology_test_driver.hpp>

#include "lib/core/topology_groups.hpp"
#include "lib/runtime/checkpoint.hpp"
#include "lib/runtime/task_manager.hpp"
#include "lib/state/record_cache.hpp"
#include "tests/state/store_test_support.hpp"

using namespace kstreams;
using detail::topic_partition;
using str = std::string;

namespace {

using events = std::vector<str>;

/// Input partitions as in-memory logs; every call that matters is written to `log`.
struct fake_consumer final : detail::consumer_port {
    struct rec {
        std::optional<str> key, value;
        std::int64_t offset, ts;
    };
    events& log;
    std::map<topic_partition, std::deque<rec>> pending;
    std::map<topic_partition, std::int64_t> committed_offsets;
    std::map<topic_partition, std::int64_t> next_offset;
    std::set<topic_partition> paused;
    std::vector<std::vector<std::pair<topic_partition, std::int64_t>>> commits;
    enum class on_commit { ok, group_moved, fail } commit_behaviour = on_commit::ok;
    std::function<void()> during_commit;
    int outstanding = 0;  ///< fetched and not released

    explicit fake_consumer(events& l) : log(l) {}
    void add(const topic_partition& tp, str key, str value, std::int64_t ts) {
        pending[tp].push_back({key, value, next_offset[tp]++, ts});
    }
    std::vector<std::int64_t> committed(const std::vector<topic_partition>& parts) override {
        std::vector<std::int64_t> out;
        for (const auto& tp : parts)
            out.push_back(committed_offsets.count(tp) ? committed_offsets[tp] : no_offset);
        return out;
    }
    void assign(const std::vector<topic_partition>& parts, const std::vector<std::int64_t>&) override {
        for (const auto& tp : parts) log.push_back("assign " + detail::describe(tp));
    }
    void unassign() override { log.push_back("unassign"); }
    void seek(const topic_partition& tp, std::int64_t offset) override {
        log.push_back("seek " + detail::describe(tp) + " @" + std::to_string(offset));
    }
    void pause(const topic_partition& tp) override { paused.insert(tp); }
    void resume(const topic_partition& tp) override { paused.erase(tp); }
    std::size_t fetch(const topic_partition& tp, std::size_t max, std::vector<detail::fetched_record>& out) override {
        if (paused.count(tp)) return 0;
        auto& q = pending[tp];
        std::size_t n = 0;
        for (; n < max && !q.empty(); ++n) {
            auto* r = new rec(std::move(q.front()));
            q.pop_front();
            detail::fetched_record f;
            f.key = std::string_view(*r->key);
            f.value = std::string_view(*r->value);
            f.offset = r->offset;
            f.timestamp = r->ts;
            f.handle = r;
            out.push_back(f);
            ++outstanding;
        }
        return n;
    }
    void release(const detail::fetched_record& r) noexcept override {
        delete static_cast<rec*>(r.handle);
        --outstanding;
    }
    const headers* headers_of(const detail::fetched_record&, headers& scratch) override { return &scratch; }
    std::optional<std::int64_t> lag(const topic_partition&, std::int64_t) override { return 0; }
    commit_result commit(std::span<const detail::partition_offset> offsets) override {
        if (during_commit) during_commit();
        str line = "commit";
        std::vector<std::pair<topic_partition, std::int64_t>> copy;
        for (const auto& [tp, o, metadata] : offsets) {
            line += " " + tp->topic + "-" + std::to_string(tp->partition) + "@" + std::to_string(o);
            copy.emplace_back(*tp, o);
        }
        log.push_back(line);
        if (commit_behaviour == on_commit::fail) throw streams_error("commit refused");
        commits.push_back(copy);
        return commit_behaviour == on_commit::ok ? commit_result::ok : commit_result::group_moved;
    }
};

struct fake_producer final : detail::producer_port, detail::record_collector {
    events& log;
    std::vector<std::pair<str, str>> sent;  ///< topic, key
    detail::checkpoint_offsets acked;
    std::map<std::pair<str, std::int32_t>, std::int64_t> next;
    explicit fake_producer(events& l) : log(l) {}
    detail::record_collector& collector() override { return *this; }
    void flush() override { log.push_back("producer flush"); }
    const detail::checkpoint_offsets& changelog_offsets() override { return acked; }
    void send(std::string_view topic, std::optional<std::int32_t> partition, std::optional<std::string_view> key,
              std::optional<std::string_view>, std::int64_t, const headers&, std::string_view) override {
        const str t(topic);
        sent.emplace_back(t, key ? str(*key) : str());
        if (t.find("-changelog") != str::npos) acked[{t, partition.value_or(0)}] = next[{t, partition.value_or(0)}]++;
        else log.push_back("send " + t + " " + (key ? str(*key) : str()));
    }
    std::int32_t partition_count(std::string_view) override { return 2; }
    void commit_transaction(std::span<const detail::partition_offset> offsets) override {
        str line = "commit transaction";
        for (const auto& [tp, o, metadata] : offsets) line += " " + tp->topic + "-" + std::to_string(tp->partition) + "@" + std::to_string(o);
        log.push_back(line);
    }
    void abort_transaction() override { log.push_back("abort transaction"); }
};

struct fake_restorer final : detail::restore_reader {
    events& log;
    std::map<topic_partition, std::vector<test::produced_record>> changelogs;
    std::vector<std::pair<topic_partition, std::int64_t>> reading;
    int offsets_unknown_for = 0;  ///< offsets() says "not known yet" this many times first
    std::vector<restore_record> batch;
    explicit fake_restorer(events& l) : log(l) {}
    std::optional<std::pair<std::int64_t, std::int64_t>> offsets(const topic_partition& tp) override {
        if (offsets_unknown_for > 0) {
            --offsets_unknown_for;
            return std::nullopt;
        }
        return std::pair<std::int64_t, std::int64_t>{0, static_cast<std::int64_t>(changelogs[tp].size())};
    }
    void add(const topic_partition& tp, std::int64_t from) override {
        log.push_back("restore " + detail::describe(tp) + " from " + std::to_string(from));
        reading.emplace_back(tp, from);
    }
    void remove(const topic_partition& tp) override {
        log.push_back("restore done " + detail::describe(tp));
        std::erase_if(reading, [&](const auto& e) { return e.first == tp; });
    }
    std::size_t read(std::size_t max, detail::restore_sink& sink) override {
        if (reading.empty()) return 0;
        auto [tp, from] = reading.front();
        const auto& all = changelogs[tp];
        batch.clear();
        std::int64_t off = from;
        for (; off < static_cast<std::int64_t>(all.size()) && batch.size() < max; ++off)
            batch.push_back({*all[static_cast<std::size_t>(off)].key,
                             std::string_view(*all[static_cast<std::size_t>(off)].value), 0});
        reading.front().second = off;
        if (batch.empty()) {
            sink.on_end(tp);
            return 0;
        }
        sink.on_records(tp, batch, off - 1);
        return batch.size();
    }
};

struct counting_listener final : state_restore_listener {
    int starts = 0, ends = 0;
    std::int64_t batches = 0, total = -1, first_from = -1;
    void on_restore_start(std::string_view, std::int32_t, std::string_view, std::int64_t from, std::int64_t) override {
        if (starts++ == 0) first_from = from;
    }
    void on_batch_restored(std::string_view, std::int32_t, std::string_view, std::int64_t, std::int64_t) override {
        ++batches;
    }
    void on_restore_end(std::string_view, std::int32_t, std::string_view, std::int64_t n) override {
        ++ends;
        total = n;
    }
};

topology count_topology(bool persistent, bool cached = false) {
    streams_builder b;
    auto m = materialized<>::as("counts");
    m = persistent ? m.with_persistent_store() : m.with_in_memory_store();
    if (!cached) m = m.with_caching_disabled();
    b.stream<str, str>("in").group_by_key().count(m).to_stream().to("out");
    return b.build();
}

/// `n` changelog records of the counts store (as a driver run writes them).
std::vector<test::produced_record> count_changelog(int n) {
    topology t = count_topology(false);
    test::driver_config cfg;
    cfg.application_id = "app";
    test::topology_test_driver driver(t, cfg);
    auto in = driver.create_input_topic<str, str>("in");
    for (int i = 0; i < n; ++i) in.pipe_input("k" + std::to_string(i % 50), "v", i);
    return driver.changelog_records()["app-counts-changelog"];
}

const str changelog = "app-counts-changelog";

/// A task manager over fake ports for count_topology, its clock at `now`.
struct fixture {
    events log;
    topology topo;
    detail::topology_groups groups;
    kstreams::metrics metrics;
    state::record_cache cache{1 << 20};
    detail::task_environment env;
    std::int64_t now = 0;
    fake_consumer consumer{log};
    fake_producer producer{log};
    fake_restorer restorer{log};
    counting_listener listener;
    std::unique_ptr<detail::task_manager> tm;
    std::filesystem::path dir;
    detail::task_manager_config cfg;

    /// `exactly_once`: processing.guarantee=exactly_once_v2 (with a checkpoint_delta of 0, so that
    /// at-least-once would write a checkpoint at every commit).
    explicit fixture(bool persistent = false, bool cached = false, std::int64_t commit_interval = -1,
                     bool exactly_once = false)
        : topo(count_topology(persistent, cached)), groups(detail::group_topology(topo.model())) {
        env.application_id = "app";
        env.wall_clock = [this] { return now; };
        env.collector = &producer;
        env.metrics = &metrics;
        env.stores.cache = &cache;
        env.exactly_once = exactly_once;
        if (persistent) {
            dir = test_support::fresh_temp_dir("task-manager");
            env.state_dir = dir / "app";
        }
        cfg.max_task_idle_ms = -1;
        cfg.commit_interval_ms = commit_interval;
        cfg.restore_batch = 1000;
        cfg.restore_listener = &listener;
        cfg.exactly_once = exactly_once;
        if (exactly_once) cfg.checkpoint_delta = 0;
        make_task_manager();
    }
    /// A new task manager over the same state directory and ports (a restarted instance).
    void restart() {
        tm.reset();
        make_task_manager();
    }
    void make_task_manager() {
        tm = std::make_unique<detail::task_manager>(
            topo.model(), groups, env, consumer, producer, restorer,
            [this](std::string_view topic) -> const detail::subtopology_group* {
                for (const auto& sub : groups.subtopologies)
                    if (std::find(sub.source_topics.begin(), sub.source_topics.end(), topic) != sub.source_topics.end())
                        return &sub;
                return nullptr;
            },
            cfg);
    }
    ~fixture() {
        tm.reset();
        if (!dir.empty()) std::filesystem::remove_all(dir);
    }
    /// One turn of a runner's loop.
    bool turn() {
        bool any = tm->restore_step();
        tm->fill_buffers();
        std::optional<std::int64_t> idle;
        any = tm->process(idle) || any;
        tm->maybe_commit();
        return any;
    }
    std::size_t outputs() const {
        return static_cast<std::size_t>(std::count_if(producer.sent.begin(), producer.sent.end(),
                                                      [](const auto& s) { return s.first == "out"; }));
    }
    bool logged(const str& line) const { return std::find(log.begin(), log.end(), line) != log.end(); }
};

const topic_partition in0{"in", 0}, in1{"in", 1}, cl0{changelog, 0};

}  // namespace

TEST_CASE("task manager: a restoring task does not process while another task does; restoration is stepwise") {
    fixture f;
    f.restorer.changelogs[cl0] = count_changelog(2500);
    f.restorer.offsets_unknown_for = 1;  // the end offset is not known at the first step
    for (int i = 0; i < 5; ++i) {
        f.consumer.add(in0, "k0", "v", 5000 + i);
        f.consumer.add(in1, "k1", "v", 5000 + i);
    }
    f.tm->assign({in0, in1});
    CHECK(f.tm->is_restoring({0, 0}));
    CHECK(f.consumer.paused.count(in0) == 1);

    f.turn();  // 0_0's end offset is not known yet: nothing restored, but 0_1 (empty changelog) processes
    CHECK_FALSE(f.tm->is_restoring({0, 1}));
    CHECK(f.metrics.value("records-restored") == 0);
    CHECK(f.outputs() == 5);
    CHECK(f.tm->is_restoring({0, 0}));

    f.turn();
    CHECK(f.metrics.value("records-restored") == 1000);  // one bounded batch per step
    REQUIRE(f.tm->restoration().size() == 1);
    CHECK(f.tm->restoration()[0].restored == 1000);
    CHECK(f.tm->restoration()[0].remaining == 1500);
    CHECK(f.outputs() == 5);  // task 0_0 still does not process

    f.turn();
    f.turn();
    CHECK(f.metrics.value("records-restored") == 2500);
    CHECK_FALSE(f.tm->restoring());
    CHECK(f.consumer.paused.empty());
    f.turn();
    CHECK(f.outputs() == 10);
    CHECK(f.listener.starts == 1);
    CHECK(f.listener.batches == 3);
    CHECK(f.listener.ends == 1);
    CHECK(f.listener.total == 2500);
    CHECK(f.logged("restore done " + detail::describe(cl0)));
    CHECK(f.consumer.outstanding == 0);
}

TEST_CASE("task manager: an assignment in the middle of a restore keeps it going and starts the new task") {
    fixture f;
    f.restorer.changelogs[cl0] = count_changelog(2500);
    f.tm->assign({in0});
    f.turn();
    CHECK(f.metrics.value("records-restored") == 1000);
    f.consumer.add(in1, "k1", "v", 1);
    f.tm->assign({in1});
    CHECK(f.tm->is_restoring({0, 0}));
    f.turn();
    CHECK(f.outputs() == 1);  // the new task processes at once
    while (f.tm->restoring()) f.turn();
    CHECK(f.metrics.value("records-restored") == 2500);  // each record restored once
    CHECK(f.listener.starts == 1);
    CHECK(f.listener.total == 2500);
}

TEST_CASE("task manager: a revocation in the middle of a restore suspends it; reassigned, it resumes where it was") {
    fixture f;
    f.restorer.changelogs[cl0] = count_changelog(2500);
    f.tm->assign({in0});
    f.turn();
    f.tm->revoke();
    CHECK(f.logged("restore done " + detail::describe(cl0)));  // the reader stops reading it
    CHECK(f.logged("unassign"));
    CHECK(f.tm->suspended_tasks() == std::vector<task_id>{{0, 0}});
    CHECK(f.restorer.reading.empty());

    f.tm->assign({in0});
    f.turn();
    CHECK(f.logged("restore " + detail::describe(cl0) + " from 1000"));
    while (f.tm->restoring()) f.turn();
    CHECK(f.metrics.value("records-restored") == 2500);
    CHECK(f.listener.starts == 1);
    CHECK(f.listener.ends == 1);
    CHECK(f.listener.total == 2500);
}

TEST_CASE("task manager: a task revoked mid-restore and not reassigned is closed, its checkpoint at what it restored") {
    fixture f(true);
    f.restorer.changelogs[cl0] = count_changelog(2500);
    f.tm->assign({in0});
    f.turn();
    f.tm->revoke();
    f.tm->assign({in1});
    CHECK(f.tm->suspended_tasks().empty());
    CHECK(f.tm->find_task({0, 0}) == nullptr);
    CHECK(f.restorer.reading.empty());
    const auto cp = detail::read_checkpoint(f.dir / "app" / "0_0");
    REQUIRE(cp.count({changelog, 0}) == 1);
    CHECK(cp.at({changelog, 0}) == 1000);
    CHECK(f.listener.ends == 0);  // it did not finish
}

TEST_CASE("task manager: a commit flushes caches, then the producer, then commits offsets, then checkpoints") {
    fixture f(true, true);
    f.tm->assign({in0});
    f.consumer.add(in0, "a", "v", 1);
    f.consumer.add(in0, "a", "v", 2);
    f.consumer.add(in0, "b", "v", 3);
    f.turn();
    CHECK(f.outputs() == 0);  // the record cache holds the counts
    const auto file = f.dir / "app" / "0_0" / ".checkpoint";
    bool checkpoint_before_commit = true;
    f.consumer.during_commit = [&] { checkpoint_before_commit = std::filesystem::exists(file); };
    f.log.clear();
    f.tm->commit(true);
    CHECK(f.log == events{"send out a", "send out b", "producer flush", "commit in-0@3"});
    CHECK_FALSE(checkpoint_before_commit);
    const auto cp = detail::read_checkpoint(f.dir / "app" / "0_0");
    CHECK(cp.at({changelog, 0}) == 2);  // two changelog records (a, b) were acknowledged: next is 2

    // Nothing new: no second commit of the same offsets.
    f.log.clear();
    f.tm->commit();
    CHECK(f.log == events{"producer flush"});
}

TEST_CASE("task manager: commits on commit.interval.ms and when a processor asks") {
    fixture f(false, false, 100);
    f.tm->assign({in0});
    f.consumer.add(in0, "a", "v", 1);
    f.turn();
    CHECK(f.consumer.commits.empty());
    f.now = 100;
    f.turn();
    REQUIRE(f.consumer.commits.size() == 1);
    CHECK(f.consumer.commits[0][0].second == 1);
    CHECK(f.tm->next_deadline() == 200);
}

TEST_CASE("task manager: a commit the group refused is retried with the same offsets; a failed one throws") {
    fixture f;
    f.tm->assign({in0});
    f.consumer.add(in0, "a", "v", 1);
    f.turn();
    f.consumer.commit_behaviour = fake_consumer::on_commit::group_moved;
    f.tm->commit();
    f.consumer.commit_behaviour = fake_consumer::on_commit::ok;
    f.tm->commit();
    REQUIRE(f.consumer.commits.size() == 2);
    CHECK(f.consumer.commits[1] == f.consumer.commits[0]);  // not marked committed by the refused one

    f.consumer.add(in0, "b", "v", 2);
    f.turn();
    f.consumer.commit_behaviour = fake_consumer::on_commit::fail;
    CHECK_THROWS_WITH_AS(f.tm->commit(), doctest::Contains("commit refused"), streams_error);
    // A dirty close after the failure still gives every buffered record back.
    f.tm->lose();
    CHECK(f.consumer.outstanding == 0);
    CHECK(f.logged("unassign"));
}

TEST_CASE("task manager: lost partitions close the tasks without committing") {
    fixture f;
    f.tm->assign({in0});
    f.consumer.add(in0, "a", "v", 1);
    f.consumer.add(in0, "b", "v", 2);
    f.tm->fill_buffers();
    f.tm->lose();
    CHECK(f.consumer.commits.empty());
    CHECK(f.consumer.outstanding == 0);
    CHECK(f.tm->tasks().empty());
}

TEST_CASE("task manager, exactly-once: a commit is one transaction with the offsets; checkpoints only on a clean close") {
    fixture f(true, true, -1, true);
    f.tm->assign({in0});
    f.consumer.add(in0, "a", "v", 1);
    f.consumer.add(in0, "a", "v", 2);
    f.consumer.add(in0, "b", "v", 3);
    f.turn();
    const auto file = f.dir / "app" / "0_0" / ".checkpoint";
    f.log.clear();
    f.tm->commit();
    // The caches' records, then the transaction with the offsets: no consumer commit, no flush
    // of its own (committing the transaction delivers everything first).
    CHECK(f.log == events{"send out a", "send out b", "commit transaction in-0@3"});
    CHECK(f.consumer.commits.empty());
    CHECK_FALSE(std::filesystem::exists(file));  // at-least-once would have written it here
    f.tm->close(true);
    REQUIRE(std::filesystem::exists(file));
    CHECK(detail::read_checkpoint(f.dir / "app" / "0_0").at({changelog, 0}) == 2);
}

TEST_CASE("task manager, exactly-once: after an unclean stop the store is wiped and restored; after a clean one it is trusted") {
    fixture f(true, false, -1, true);
    const auto file = f.dir / "app" / "0_0" / ".checkpoint";
    f.tm->assign({in0});
    f.consumer.add(in0, "a", "v", 1);
    f.turn();
    f.tm->commit();
    f.log.clear();
    f.tm->lose();  // as a crash: no clean close
    CHECK(f.log.front() == "abort transaction");
    CHECK_FALSE(std::filesystem::exists(file));

    f.restorer.changelogs[cl0] = count_changelog(5);
    f.restart();
    f.tm->assign({in0});
    CHECK(f.metrics.value("stores-wiped") == 1);  // files and no checkpoint: not trusted
    while (f.tm->restoring()) f.turn();
    CHECK(f.listener.first_from == 0);  // the whole changelog
    CHECK(f.metrics.value("records-restored") == 5);
    f.tm->close(true);
    REQUIRE(std::filesystem::exists(file));
    CHECK(detail::read_checkpoint(f.dir / "app" / "0_0").at({changelog, 0}) == 5);

    f.restart();
    f.tm->assign({in0});
    CHECK(f.metrics.value("stores-wiped") == 1);  // closed cleanly: kept
    CHECK_FALSE(std::filesystem::exists(file));    // deleted while the task runs
    while (f.tm->restoring()) f.turn();
    CHECK(f.metrics.value("records-restored") == 5);  // nothing more to restore
}

TEST_CASE("task manager, exactly-once: a suspended task writes its checkpoint; resumed, it deletes it again") {
    fixture f(true, false, -1, true);
    const auto file = f.dir / "app" / "0_0" / ".checkpoint";
    f.tm->assign({in0});
    f.consumer.add(in0, "a", "v", 1);
    f.turn();
    f.tm->revoke();
    CHECK(std::filesystem::exists(file));
    f.tm->assign({in0});
    CHECK_FALSE(std::filesystem::exists(file));
}

namespace {

/// Takes 10 ms of the fixture's clock per record.
struct slow_forwarder : processor<str, str, str, str> {
    std::int64_t* clock = nullptr;
    void process(const record<str, str>& r) override {
        *clock += 10;
        context().forward(r);
    }
};

/// The fixture over in -> slow -> out, its turns bounded (the Kafka runtime's setting).
void make_slow(fixture& f) {
    f.tm.reset();  // it reads the topology being replaced
    f.topo = topology();
    f.topo.add_source<str, str>("src", {"in"})
        .add_processor("slow", [&f] {
            auto p = std::make_unique<slow_forwarder>();
            p->clock = &f.now;
            return p;
        }, {"src"})
        .add_sink<str, str>("sink", "out", {"slow"});
    f.groups = detail::group_topology(f.topo.model());
    f.cfg.bound_turns = true;
    f.restart();
    f.tm->assign({in0});
    while (f.tm->restoring()) f.tm->restore_step();
}

/// One turn of the (only) running task, as the Kafka runtime hands it out; the records it processed.
std::size_t task_turn(fixture& f) {
    const auto running = f.tm->running_tasks();
    REQUIRE(running.size() == 1);
    const std::size_t before = f.outputs();
    f.tm->begin_turn(*running[0]);
    f.tm->turn(*running[0]);
    f.tm->end_turn(*running[0]);
    return f.outputs() - before;
}

}  // namespace

TEST_CASE("task manager: a bounded turn ends at the commit deadline; a slow task's turns shrink to the interval") {
    fixture f(false, false, 100);  // commit.interval.ms 100, next commit at 100
    make_slow(f);
    for (int i = 0; i < 3000; ++i) f.consumer.add(in0, "k", "v", i);
    // The first look at the clock comes after 64 records (640 ms): past the deadline, the turn ends
    // there, not after records_per_round (1000) records, 10 s.
    CHECK(task_turn(f) == 64);
    CHECK(f.tm->commit_due());
    std::vector<std::size_t> sizes;
    for (int i = 0; i < 8; ++i) {
        f.tm->maybe_commit();
        const std::int64_t deadline = f.now + 100;
        sizes.push_back(task_turn(f));
        CHECK(f.now - deadline < 64 * 10);  // never a whole turn past it
    }
    // The looks come closer (every 32, 16, ... records) until the clock is read after each record:
    // then a turn is the commit interval, 10 records, and ends on the deadline.
    CHECK(sizes == std::vector<std::size_t>{32, 16, 12, 10, 10, 10, 10, 10});
    f.tm->maybe_commit();
    const std::int64_t deadline = f.now + 100;
    task_turn(f);
    CHECK(f.now == deadline);
}

TEST_CASE("task manager: a bounded turn ends early when the runner asks (to commit, rebalance or close)") {
    fixture f(false, false, -1);  // commits only when asked: no deadline
    make_slow(f);
    for (int i = 0; i < 3000; ++i) f.consumer.add(in0, "k", "v", i);
    // No deadline, no one asking: all it has buffered (a fill fetches up to 500 records).
    CHECK(task_turn(f) == 500);
    f.tm->yield_turns(true);
    CHECK(task_turn(f) == 1);  // ends at its next look at the clock, after every record by now
    f.tm->yield_turns(false);
    CHECK(task_turn(f) == 999);  // the 499 left and the 500 fetched
}
