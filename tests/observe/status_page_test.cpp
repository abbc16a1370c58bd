// The built-in status page: its HTTP routes, and the page itself in headless Chromium against an
// app running on the embedded cluster (the topology drawn, a process rate that moves).
#include <doctest/doctest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

#include <kstreams/dsl.hpp>
#include <kstreams/error.hpp>
#include <kstreams/streams.hpp>
#include <kstreams/test/topic_client.hpp>

#include "tests/observe/observe_support.hpp"

using namespace kstreams;
using namespace std::chrono_literals;

namespace {

/// A plain HTTP/1.0 GET to "127.0.0.1:<port>": the whole answer (status line, headers, body).
std::string http_get(const std::string& address, const std::string& path, const std::string& method = "GET") {
    const auto colon = address.rfind(':');
    const int port = std::stoi(address.substr(colon + 1));
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    REQUIRE(fd >= 0);
    sockaddr_in sa{};
    sa.sin_family = AF_INET;
    sa.sin_port = htons(static_cast<std::uint16_t>(port));
    ::inet_pton(AF_INET, address.substr(0, colon).c_str(), &sa.sin_addr);
    REQUIRE(::connect(fd, reinterpret_cast<sockaddr*>(&sa), sizeof sa) == 0);
    const std::string req = method + " " + path + " HTTP/1.0\r\nHost: localhost\r\n\r\n";
    REQUIRE(::write(fd, req.data(), req.size()) == static_cast<ssize_t>(req.size()));
    std::string out;
    char buf[4096];
    for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) > 0;) out.append(buf, static_cast<std::size_t>(n));
    ::close(fd);
    return out;
}

std::string run(const std::string& command) {
    std::string out;
    if (FILE* p = ::popen(command.c_str(), "r")) {
        char buf[4096];
        for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
        ::pclose(p);
    }
    return out;
}

std::string element_text(const std::string& dom, const std::string& id) {
    std::smatch m;
    if (std::regex_search(dom, m, std::regex("id=\"" + id + "\"[^>]*>([^<]*)<"))) return m[1];
    return {};
}

double number_or(const std::string& s, double otherwise) {
    try {
        return std::stod(s);
    } catch (...) {
        return otherwise;
    }
}

topology counting_topology() {
    streams_builder b;
    b.stream<std::string, std::string>("status-in")
        .filter([](const std::string&, const std::string& v) { return !v.empty(); })
        .select_key([](const std::string& k, const std::string&) { return k; })  // a repartition topic
        .group_by_key()
        .count(materialized<>::as("status-counts"))
        .to_stream()
        .to("status-out");
    return b.build();
}

/// Writes a record every 20 ms while it lives, so that rates move.
struct steady_input {
    std::atomic<bool> stop{false};
    std::thread thread;
    explicit steady_input(const std::string& bootstrap) {
        thread = std::thread([this, bootstrap] {
            test::topic_writer writer(bootstrap);
            for (int i = 0; !stop; ++i) {
                writer.send("status-in", "key-" + std::to_string(i % 7), "v");
                writer.flush();
                std::this_thread::sleep_for(20ms);
            }
        });
    }
    ~steady_input() {
        stop = true;
        thread.join();
    }
};

}  // namespace

TEST_CASE("the status page is off by default and listens on 127.0.0.1 when asked") {
    {
        kafka_streams app(counting_topology(), test::observe_config("status-off"));
        app.start();
        CHECK(app.status_address().empty());
        CHECK(app.close(30s));
    }
    CHECK(streams_config::from_properties({{"status.listener", "127.0.0.1:0"}}).status_listener == "127.0.0.1:0");
    auto cfg = test::observe_config("status-bad");
    cfg.status_listener = "127.0.0.1:notaport";
    kafka_streams bad(counting_topology(), cfg);
    CHECK_THROWS_AS(bad.start(), std::invalid_argument);
    CHECK(bad.state() == streams_state::error);
}

TEST_CASE("the status page's routes: /metrics, /tasks, /topology, its DOT and Mermaid, 404 and 405") {
    auto cfg = test::observe_config("status-routes");
    cfg.status_listener = "127.0.0.1:0";
    cfg.metrics_recording_level = metrics_recording_level::debug;
    kafka_streams app(counting_topology(), cfg);
    app.start();
    const std::string at = app.status_address();
    REQUIRE(at.rfind("127.0.0.1:", 0) == 0);
    REQUIRE(app.wait_until(streams_state::running, 30s));
    {
        test::topic_writer writer(app.bootstrap_servers());
        for (int i = 0; i < 3; ++i) writer.send("status-in", "k", "v");
        writer.flush();
    }
    std::string metrics;
    REQUIRE(test::poll_until(20s, [&] {
        metrics = http_get(at, "/metrics");
        return test::prometheus_value(metrics.substr(metrics.find("\r\n\r\n") + 4),
                                      "kstreams_stream_thread_metrics_process_total{thread_id=\"status-routes-"
                                      "StreamThread-1\"}") == 3;
    }));
    CHECK(metrics.rfind("HTTP/1.0 200 OK\r\n", 0) == 0);
    CHECK(metrics.find("Content-Type: text/plain; version=0.0.4; charset=utf-8\r\n") != std::string::npos);

    // Each task's counters are published every 100 ms or so: poll.
    std::string tasks;
    CHECK(test::poll_until(10s, [&] {
        tasks = http_get(at, "/tasks");
        return tasks.find("\"task_id\":\"1_0\",\"state\":\"RUNNING\",\"process_total\":3") != std::string::npos;
    }));
    CHECK(tasks.find("Content-Type: application/json") != std::string::npos);
    CHECK(tasks.find("\"application_id\":\"status-routes\"") != std::string::npos);
    CHECK(tasks.find("\"state\":\"RUNNING\"") != std::string::npos);
    CHECK(tasks.find("\"task_id\":\"0_0\",\"state\":\"RUNNING\"") != std::string::npos);
    CHECK(tasks.find("{\"topic\":\"status-in\",\"partition\":0,\"lag\":0}") != std::string::npos);

    const std::string svg = http_get(at, "/topology");
    CHECK(svg.find("Content-Type: image/svg+xml") != std::string::npos);
    CHECK(svg.find("<svg") != std::string::npos);
    CHECK(svg.find(">KSTREAM-FILTER-0000000001<") != std::string::npos);
    CHECK(svg.find(">status-routes-status-counts-repartition<") != std::string::npos);
    CHECK(svg.find(">Sub-topology 1<") != std::string::npos);
    CHECK(svg.find("rec/s</text>") != std::string::npos);  // node rates at DEBUG

    CHECK(http_get(at, "/topology.dot").find("digraph topology {") != std::string::npos);
    CHECK(http_get(at, "/topology.mmd").find("flowchart TB") != std::string::npos);
    CHECK(http_get(at, "/").find("<title>kstreams status</title>") != std::string::npos);
    CHECK(http_get(at, "/nothing-here").rfind("HTTP/1.0 404", 0) == 0);
    CHECK(http_get(at, "/metrics", "POST").rfind("HTTP/1.0 405", 0) == 0);
    CHECK(app.close(30s));
    CHECK(app.status_address().empty());
}

TEST_CASE("in headless Chromium the page shows the topology and a process rate that moves") {
    REQUIRE_MESSAGE(!run("command -v chromium").empty(),
                    "chromium is not installed (scripts/install-deps installs Debian's chromium)");
    auto cfg = test::observe_config("status-browser");
    cfg.status_listener = "127.0.0.1:0";
    cfg.metrics_recording_level = metrics_recording_level::debug;
    kafka_streams app(counting_topology(), cfg);
    app.start();
    REQUIRE(app.wait_until(streams_state::running, 30s));
    steady_input input(app.bootstrap_servers());
    const std::string url = "http://" + app.status_address() + "/";
    const std::filesystem::path profile =
        std::filesystem::temp_directory_path() / ("kstreams-chromium-" + std::to_string(::getpid()));
    const std::string chromium = "timeout 25 chromium --headless --no-sandbox --disable-gpu --no-first-run "
                                 "--disable-dev-shm-usage --user-data-dir=" + profile.string() + " ";

    // Each load polls a few times in virtual time; load again until the rate has moved (bounded).
    std::string dom;
    bool shown = false;
    const auto until = std::chrono::steady_clock::now() + 45s;
    while (!shown && std::chrono::steady_clock::now() < until) {
        dom = run(chromium + "--virtual-time-budget=4000 --dump-dom " + url + " 2>/dev/null");
        shown = element_text(dom, "state") == "RUNNING" && number_or(element_text(dom, "rate"), 0) > 0 &&
                number_or(element_text(dom, "rate-changes"), 0) >= 1 &&
                number_or(element_text(dom, "processed"), 0) > 0 &&
                dom.find(">KSTREAM-SOURCE-0000000000<") != std::string::npos &&
                dom.find(">status-out<") != std::string::npos;
    }
    INFO(dom);
    CHECK(shown);
    CHECK(dom.find("<td>0_0</td><td>RUNNING</td>") != std::string::npos);
    CHECK(dom.find("<td>1_0</td><td>RUNNING</td>") != std::string::npos);

    const std::filesystem::path shot = test::artifact_dir() / "status-page.png";
    std::filesystem::remove(shot);
    run(chromium + "--window-size=1400,1000 --virtual-time-budget=3000 --screenshot=" + shot.string() + " " + url +
        " 2>/dev/null");
    CHECK(std::filesystem::exists(shot));
    CHECK(std::filesystem::file_size(shot) > 10000);
    const std::string where = "screenshot: " + shot.string();
    MESSAGE(where);
    std::filesystem::remove_all(profile);
    CHECK(app.close(30s));
}
