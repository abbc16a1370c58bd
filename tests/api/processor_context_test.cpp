// The processor context: forwarding, punctuation, metadata, headers, stores and commit requests,
// all through the test driver.
#include <doctest/doctest.h>

#include <kstreams/state/stores.hpp>
#include <kstreams/test/topology_test_driver.hpp>
#include <kstreams/topology.hpp>

using namespace kstreams;
using namespace std::chrono_literals;

namespace {
using str = std::string;

/// Sends each record to the child named by its value, or to all children for "all".
struct router : processor<str, str, str, str> {
    void process(const record<str, str>& r) override {
        if (r.value == "all") context().forward(r);
        else context().forward(r, r.value);
    }
};

topology routed() {
    topology t;
    t.add_source<str, str>("src", {"in"})
        .add_processor("router", [] { return std::make_unique<router>(); }, {"src"})
        .add_sink<str, str>("left", "left-topic", {"router"})
        .add_sink<str, str>("right", "right-topic", {"router"});
    return t;
}

/// Records every punctuation it gets as an output record (key = kind, value = its timestamp).
struct punctuating : processor<str, str, str, str> {
    punctuation_type type;
    std::chrono::milliseconds interval;
    int cancel_after = -1;  // cancel from inside the callback after this many calls
    int calls = 0;
    cancellable handle;
    std::vector<bool> metadata_in_punctuation;

    punctuating(punctuation_type t, std::chrono::milliseconds i, int cancel) : type(t), interval(i), cancel_after(cancel) {}

    void init(context_type& ctx) override {
        processor::init(ctx);
        handle = ctx.schedule(interval, type, [this](std::int64_t ts) {
            ++calls;
            metadata_in_punctuation.push_back(context().metadata().has_value());
            record<str, str> r;
            r.key = type == punctuation_type::stream_time ? "stream" : "wall";
            r.value = std::to_string(ts);
            r.timestamp = ts;
            context().forward(r);
            if (calls == cancel_after) handle.cancel();
        });
    }
    void process(const record<str, str>& r) override {
        if (r.value == "cancel") handle.cancel();
    }
};

struct punctuation_fixture {
    punctuating* proc = nullptr;
    topology t;
    punctuation_fixture(punctuation_type type, std::chrono::milliseconds interval, int cancel_after = -1) {
        t.add_source<str, str>("src", {"in"})
            .add_processor("p",
                           [this, type, interval, cancel_after] {
                               auto p = std::make_unique<punctuating>(type, interval, cancel_after);
                               proc = p.get();
                               return p;
                           },
                           {"src"})
            .add_sink<str, str>("sink", "out", {"p"});
    }
};

std::vector<str> values(test::test_output_topic<str, str>& out) { return out.read_values_to_list(); }
}  // namespace

TEST_CASE("forward() reaches every child; forward(r, name) only the named one") {
    auto t = routed();
    test::topology_test_driver driver(t);
    auto in = driver.create_input_topic<str, str>("in");
    auto left = driver.create_output_topic<str, str>("left-topic");
    auto right = driver.create_output_topic<str, str>("right-topic");

    in.pipe_input("k1", "all", 1);
    in.pipe_input("k2", "left", 2);
    in.pipe_input("k3", "right", 3);
    CHECK(left.read_key_values_to_list() == std::vector<key_value<str, str>>{{"k1", "all"}, {"k2", "left"}});
    CHECK(right.read_key_values_to_list() == std::vector<key_value<str, str>>{{"k1", "all"}, {"k3", "right"}});
}

TEST_CASE("forwarding to a child that does not exist names the processor and the child") {
    auto t = routed();
    test::topology_test_driver driver(t);
    auto in = driver.create_input_topic<str, str>("in");
    try {
        in.pipe_input("k", "middle", 1);
        FAIL("no error");
    } catch (const streams_error& e) {
        const std::string m = e.what();
        INFO(m);
        CHECK(m.find("processor router") != std::string::npos);
        CHECK(m.find("middle") != std::string::npos);
    }
}

TEST_CASE("stream-time punctuation: aligned to 0, fires with the current stream time, skips missed intervals") {
    punctuation_fixture f(punctuation_type::stream_time, 10ms);
    test::topology_test_driver driver(f.t);
    auto in = driver.create_input_topic<str, str>("in");
    auto out = driver.create_output_topic<str, str>("out");

    CHECK(out.is_empty());  // no stream time before the first record
    in.pipe_input("a", "x", 3);  // due at 0: fires at once, with 3; next due 10
    CHECK(values(out) == std::vector<str>{"3"});
    in.pipe_input("a", "x", 9);
    CHECK(out.is_empty());
    in.pipe_input("a", "x", 5);  // out of order: stream time stays 9
    CHECK(out.is_empty());
    in.pipe_input("a", "x", 10);
    CHECK(values(out) == std::vector<str>{"10"});  // next due 20
    in.pipe_input("a", "x", 47);  // 20, 30 and 40 missed: one call, next due 50 (not 30)
    CHECK(values(out) == std::vector<str>{"47"});
    in.pipe_input("a", "x", 49);
    CHECK(out.is_empty());
    in.pipe_input("a", "x", 50);
    CHECK(values(out) == std::vector<str>{"50"});
    CHECK(f.proc->calls == 4);
    // The wall clock does not drive stream-time punctuations.
    driver.advance_wall_clock_time(1000ms);
    CHECK(out.is_empty());
}

TEST_CASE("wall-clock punctuation: driven by advance_wall_clock_time, first after one interval") {
    punctuation_fixture f(punctuation_type::wall_clock_time, 10ms);
    test::topology_test_driver driver(f.t, test::driver_config{.initial_wall_clock_ms = 1000});
    auto in = driver.create_input_topic<str, str>("in");
    auto out = driver.create_output_topic<str, str>("out");

    in.pipe_input("a", "x", 5000);  // records do not move the wall clock
    CHECK(out.is_empty());
    driver.advance_wall_clock_time(9ms);
    CHECK(out.is_empty());
    driver.advance_wall_clock_time(1ms);
    CHECK(values(out) == std::vector<str>{"1010"});
    driver.advance_wall_clock_time(35ms);  // 1020, 1030, 1040 missed: one call at 1045, next 1050
    CHECK(values(out) == std::vector<str>{"1045"});
    driver.advance_wall_clock_time(5ms);
    CHECK(values(out) == std::vector<str>{"1050"});
    CHECK(driver.wall_clock_time_ms() == 1050);
}

TEST_CASE("a punctuation has no record metadata; process() has topic, partition and offset") {
    struct meta : processor<str, str, str, str> {
        std::vector<record_metadata> seen;
        std::vector<std::string> topics;
        void process(const record<str, str>&) override {
            auto m = context().metadata();
            REQUIRE(m.has_value());
            seen.push_back(*m);
            topics.emplace_back(m->topic);
        }
    };
    meta* proc = nullptr;
    topology t;
    t.add_source<str, str>("src", {"in-a", "in-b"}).add_processor("m", [&] {
        auto p = std::make_unique<meta>();
        proc = p.get();
        return p;
    }, {"src"});
    test::topology_test_driver driver(t);
    auto a = driver.create_input_topic<str, str>("in-a");
    auto b = driver.create_input_topic<str, str>("in-b");
    a.pipe_input("k", "v", 1);
    a.pipe_input("k", "v", 2);
    b.pipe_input("k", "v", 3);
    REQUIRE(proc->seen.size() == 3);
    CHECK(proc->topics == std::vector<std::string>{"in-a", "in-a", "in-b"});
    CHECK(proc->seen[0].partition == 0);
    CHECK(proc->seen[0].offset == 0);
    CHECK(proc->seen[1].offset == 1);
    CHECK(proc->seen[2].offset == 0);  // offsets count per topic

    punctuation_fixture f(punctuation_type::stream_time, 10ms);
    test::topology_test_driver d2(f.t);
    d2.create_input_topic<str, str>("in").pipe_input("k", "v", 0);
    CHECK(f.proc->metadata_in_punctuation == std::vector<bool>{false});
}

TEST_CASE("cancelling a punctuation, from process() and from inside the callback") {
    {
        punctuation_fixture f(punctuation_type::stream_time, 10ms);
        test::topology_test_driver driver(f.t);
        auto in = driver.create_input_topic<str, str>("in");
        auto out = driver.create_output_topic<str, str>("out");
        in.pipe_input("a", "x", 0);
        CHECK(values(out) == std::vector<str>{"0"});
        in.pipe_input("a", "cancel", 5);
        in.pipe_input("a", "x", 100);
        CHECK(out.is_empty());
        CHECK(f.proc->calls == 1);
    }
    {
        punctuation_fixture f(punctuation_type::wall_clock_time, 10ms, 2);
        test::topology_test_driver driver(f.t);
        auto out = driver.create_output_topic<str, str>("out");
        for (int i = 0; i < 5; ++i) driver.advance_wall_clock_time(10ms);
        CHECK(values(out) == std::vector<str>{"10", "20"});
        CHECK(f.proc->calls == 2);
    }
}

TEST_CASE("a punctuation interval below 1 ms is refused") {
    punctuation_fixture f(punctuation_type::stream_time, 0ms);
    CHECK_THROWS_AS(test::topology_test_driver{f.t}, std::invalid_argument);
}

TEST_CASE("headers pass through processors, and a processor can change them") {
    struct tagging : processor<str, str, str, str> {
        void process(const record<str, str>& r) override {
            headers h = r.headers;
            h.remove("drop-me").add("seen-by", "tagging");
            context().forward(r.with_headers(h));
        }
    };
    topology t;
    t.add_source<str, str>("src", {"in"})
        .add_sink<str, str>("untouched", "raw-out", {"src"})
        .add_processor("tag", [] { return std::make_unique<tagging>(); }, {"src"})
        .add_sink<str, str>("tagged", "tagged-out", {"tag"});
    test::topology_test_driver driver(t);
    auto in = driver.create_input_topic<str, str>("in");
    record<str, str> r;
    r.key = "k";
    r.value = "v";
    r.timestamp = 7;
    r.headers = headers{{"trace", "abc"}, {"drop-me", std::nullopt}, {"trace", "def"}};
    in.pipe_record(r);

    auto raw = driver.create_output_topic<str, str>("raw-out").read_record();
    CHECK(raw.headers == r.headers);
    auto tagged = driver.create_output_topic<str, str>("tagged-out").read_record();
    CHECK(tagged.headers == headers{{"trace", "abc"}, {"trace", "def"}, {"seen-by", "tagging"}});
    REQUIRE(tagged.headers.last("trace") != nullptr);
    CHECK(tagged.headers.last("trace")->value == "def");
    CHECK(tagged.timestamp == 7);
}

TEST_CASE("headers are values: a changed copy leaves the original and its other copies alone") {
    const headers original{{"trace", "abc"}, {"drop-me", std::nullopt}};
    headers copy = original;
    headers other = original;
    CHECK(copy == original);
    copy.add("seen-by", "x").remove("trace");
    CHECK(original == headers{{"trace", "abc"}, {"drop-me", std::nullopt}});
    CHECK(other == original);
    CHECK(copy == headers{{"drop-me", std::nullopt}, {"seen-by", "x"}});
    other.remove("absent");
    CHECK(other == original);
    headers empty;
    CHECK(empty.empty());
    CHECK(empty == headers{});
    CHECK(empty.begin() == empty.end());
    empty.add("k", std::nullopt);
    CHECK(empty.size() == 1);
    CHECK(headers{} != empty);
    record<str, str> r;
    r.headers = original;
    auto next = r.with_value(str("v"));
    next.headers.add("more", "1");
    CHECK(r.headers == original);
    CHECK(next.headers.size() == 3);
}

namespace {
/// A store that only counts cache flushes: a commit flushes the record cache of every store of the
/// task (stores themselves are flushed when a checkpoint is written, as in Kafka Streams).
class flush_counting_store final : public state_store {
public:
    explicit flush_counting_store(std::string name, int* flushes) : name_(std::move(name)), flushes_(flushes) {}
    const std::string& name() const override { return name_; }
    void init(store_context&) override { open_ = true; }
    void flush() override {}
    void flush_cache() override { ++*flushes_; }
    void close() override { open_ = false; }
    bool persistent() const override { return false; }
    bool is_open() const override { return open_; }

private:
    std::string name_;
    int* flushes_;
    bool open_ = false;
};

class flush_counting_builder final : public store_builder {
public:
    flush_counting_builder(std::string name, int* flushes) : name_(std::move(name)), flushes_(flushes) {}
    const std::string& name() const override { return name_; }
    std::unique_ptr<state_store> build() const override { return std::make_unique<flush_counting_store>(name_, flushes_); }
    bool logging_enabled() const override { return false; }
    const logging_config& logging() const override { return logging_; }
    bool caching_enabled() const override { return false; }

private:
    std::string name_;
    int* flushes_;
    logging_config logging_{false, {}};
};

struct committing : processor<str, str, str, str> {
    void init(context_type& ctx) override {
        processor::init(ctx);
        CHECK(ctx.get_state_store<state_store>("counted").is_open());
    }
    void process(const record<str, str>& r) override {
        if (r.value == "commit") context().commit();
    }
};
}  // namespace

TEST_CASE("commit() from a processor makes the driver commit (flush the task's stores)") {
    int flushes = 0;
    topology t;
    t.add_source<str, str>("src", {"in"})
        .add_processor("c", [] { return std::make_unique<committing>(); }, {"src"})
        .add_state_store(flush_counting_builder("counted", &flushes), {"c"});
    test::driver_config config;
    config.commit_after_every_record = false;
    test::topology_test_driver driver(t, config);
    auto in = driver.create_input_topic<str, str>("in");
    in.pipe_input("k", "x", 1);
    in.pipe_input("k", "x", 2);
    CHECK(flushes == 0);
    in.pipe_input("k", "commit", 3);
    CHECK(flushes == 1);
    in.pipe_input("k", "x", 4);  // the request was served; no further commit
    CHECK(flushes == 1);
    driver.commit();
    CHECK(flushes == 2);
}

TEST_CASE("the context reports application id, task id, processor name and times") {
    struct introspect : processor<str, str, str, str> {
        std::string app, task, name;
        std::int64_t stream = -2, wall = -2;
        void process(const record<str, str>&) override {
            app = std::string(context().application_id());
            task = context().task_id().to_string();
            name = context().processor_name();
            stream = context().current_stream_time_ms();
            wall = context().current_system_time_ms();
        }
    };
    introspect* p = nullptr;
    topology t;
    t.add_source<str, str>("src", {"in"}).add_processor("intro", [&] {
        auto x = std::make_unique<introspect>();
        p = x.get();
        return x;
    }, {"src"});
    test::driver_config config;
    config.application_id = "my-app";
    config.initial_wall_clock_ms = 777;
    test::topology_test_driver driver(t, config);
    driver.create_input_topic<str, str>("in").pipe_input("k", "v", 42);
    CHECK(p->app == "my-app");
    CHECK(p->task == "0_0");
    CHECK(p->name == "intro");
    CHECK(p->stream == 42);
    CHECK(p->wall == 777);
}
