#include "lib/observe/status_page.hpp"

#include <charconv>
#include <cmath>

#include <kstreams/topology.hpp>
#include <kstreams/topology_render.hpp>

#include "lib/observe/topology_svg.hpp"

namespace kstreams::detail {

namespace {

std::string json_string(std::string_view s) {
    std::string out = "\"";
    for (char c : s) {
        switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            default:
                if (static_cast<unsigned char>(c) < 0x20) {
                    char buf[8];
                    std::snprintf(buf, sizeof buf, "\\u%04x", c);
                    out += buf;
                } else {
                    out += c;
                }
        }
    }
    return out + "\"";
}

std::string json_number(double v) {
    if (!std::isfinite(v)) return "null";
    char buf[64];
    const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
    return ec == std::errc{} ? std::string(buf, end) : "null";
}

/// The value of the sample of `group`/`name` whose tags include all of `want`; NaN if none.
double find(const std::vector<metric_sample>& samples, std::string_view group, std::string_view name,
            std::initializer_list<std::pair<std::string_view, std::string_view>> want) {
    for (const auto& s : samples) {
        if (s.group != group || s.name != name) continue;
        bool all = true;
        for (const auto& [k, v] : want) all = all && s.tag(k) == v;
        if (all) return s.value;
    }
    return std::nan("");
}

/// The page: polls /tasks and /topology every second.
const char* const page_html = R"html(<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>kstreams status</title>
<style>
  body { font-family: Helvetica, Arial, sans-serif; margin: 16px; color: #222; }
  h1 { font-size: 20px; margin: 0 0 8px 0; }
  h2 { font-size: 15px; margin: 18px 0 6px 0; }
  .summary span { margin-right: 18px; }
  .state { font-weight: bold; }
  table { border-collapse: collapse; font-size: 12px; }
  td, th { border: 1px solid #ccc; padding: 3px 8px; text-align: left; }
  th { background: #f2f2f2; }
  #topology { overflow: auto; border: 1px solid #ddd; padding: 4px; }
  .muted { color: #888; font-size: 12px; }
</style>
</head>
<body>
<h1>kstreams <span id="app"></span></h1>
<div class="summary">
  <span>State: <span id="state" class="state">…</span></span>
  <span>Records processed: <span id="processed">0</span></span>
  <span>Process rate: <span id="rate">0</span> rec/s</span>
  <span class="muted">updates: <span id="updates">0</span>, rate changes: <span id="rate-changes">0</span></span>
</div>
<h2>Tasks</h2>
<table id="tasks"><thead><tr><th>Thread</th><th>Task</th><th>State</th><th>Partitions (lag)</th>
<th>Processed</th><th>Rate (rec/s)</th><th>Dropped</th><th>Restoring (restored / remaining)</th></tr></thead>
<tbody></tbody></table>
<h2>Topology</h2>
<div class="muted">Processor-node rates show at metrics.recording.level DEBUG.
<a href="/topology.dot">DOT</a> · <a href="/topology.mmd">Mermaid</a> · <a href="/metrics">Prometheus metrics</a> ·
<a href="/tasks">tasks (JSON)</a></div>
<div id="topology"></div>
<script>
"use strict";
let updates = 0, rateChanges = 0, lastRate = null;
function esc(s) { return String(s).replace(/[&<>"]/g, c => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"})[c]); }
function text(v) { return v === null || v === undefined ? "–" : esc(v); }
function fixed(v) { return v === null || v === undefined ? "–" : Number(v).toFixed(1); }
async function refresh() {
  try {
    const tasks = await (await fetch("/tasks", {cache: "no-store"})).json();
    document.getElementById("app").textContent = tasks.application_id;
    document.getElementById("state").textContent = tasks.state;
    let processed = 0, rate = 0;
    const rows = [];
    for (const th of tasks.threads) {
      processed += th.process_total || 0;
      rate += th.process_rate || 0;
      for (const t of th.tasks) {
        const parts = t.partitions.map(p => esc(p.topic) + "-" + p.partition + " (" + text(p.lag) + ")").join(", ");
        const restoring = t.restoring.map(r => esc(r.store) + ": " + r.restored + " / " + text(r.remaining)).join(", ");
        rows.push("<tr><td>" + esc(th.thread_id) + "</td><td>" + esc(t.task_id) + "</td><td>" + esc(t.state) + "</td><td>" + parts +
                  "</td><td>" + t.process_total + "</td><td>" + fixed(t.process_rate) + "</td><td>" +
                  text(t.dropped_records_total) + "</td><td>" + restoring + "</td></tr>");
      }
    }
    document.querySelector("#tasks tbody").innerHTML = rows.join("");
    document.getElementById("processed").textContent = processed;
    const shown = rate.toFixed(2);
    if (lastRate !== null && shown !== lastRate) rateChanges++;
    lastRate = shown;
    document.getElementById("rate").textContent = shown;
    document.getElementById("rate-changes").textContent = rateChanges;
    const svg = await (await fetch("/topology", {cache: "no-store"})).text();
    document.getElementById("topology").innerHTML = svg;
    updates++;
    document.getElementById("updates").textContent = updates;
  } catch (e) {
    document.getElementById("state").textContent = "unreachable (" + e + ")";
  }
}
refresh();
setInterval(refresh, 1000);
</script>
</body>
</html>
)html";


}  // namespace

std::string tasks_json(const client_snapshot& client, const std::vector<metric_sample>& samples) {
    std::string out = "{\"application_id\":" + json_string(client.application_id) +
                      ",\"client_id\":" + json_string(client.client_id) + ",\"state\":" + json_string(client.state) +
                      ",\"threads\":[";
    bool first_thread = true;
    for (const auto& th : client.threads) {
        out += std::string(first_thread ? "" : ",") + "{\"thread_id\":" + json_string(th.thread_id) +
               ",\"alive\":" + (th.alive ? "true" : "false") + ",\"process_total\":" +
               json_number(static_cast<double>(th.counters.value(metric::records_processed))) + ",\"process_rate\":" +
               json_number(find(samples, "stream-thread-metrics", "process-rate", {{"thread-id", th.thread_id}})) +
               ",\"commit_total\":" + json_number(static_cast<double>(th.counters.value("commit-total"))) +
               ",\"tasks\":[";
        first_thread = false;
        bool first_task = true;
        for (const auto& t : th.tasks) {
            const std::string id = t.id.to_string();
            out += std::string(first_task ? "" : ",") + "{\"task_id\":" + json_string(id) + ",\"state\":" +
                   json_string(t.suspended ? "SUSPENDED" : t.restoring ? "RESTORING" : "RUNNING") +
                   ",\"process_total\":" + json_number(static_cast<double>(t.counters.value(metric::records_processed))) +
                   ",\"process_rate\":" +
                   json_number(find(samples, "stream-task-metrics", "process-rate",
                                    {{"thread-id", th.thread_id}, {"task-id", id}})) +
                   ",\"dropped_records_total\":" +
                   json_number(find(samples, "stream-task-metrics", "dropped-records-total",
                                    {{"thread-id", th.thread_id}, {"task-id", id}})) +
                   ",\"restored\":" + json_number(static_cast<double>(t.restored)) + ",\"partitions\":[";
            first_task = false;
            bool first_partition = true;
            for (const auto& tp : t.partitions) {
                const std::string lag_name =
                    std::string(metric::records_lag_prefix) + tp.topic + "." + std::to_string(tp.partition);
                const auto& all = th.counters.all();
                const auto lag = all.find(lag_name);
                out += std::string(first_partition ? "" : ",") + "{\"topic\":" + json_string(tp.topic) +
                       ",\"partition\":" + std::to_string(tp.partition) + ",\"lag\":" +
                       (lag == all.end() ? std::string("null") : json_number(static_cast<double>(lag->second))) + "}";
                first_partition = false;
            }
            out += "],\"restoring\":[";
            bool first_store = true;
            for (const auto& r : th.restoring) {
                if (r.task != t.id) continue;
                out += std::string(first_store ? "" : ",") + "{\"store\":" + json_string(r.store) + ",\"changelog\":" +
                       json_string(r.changelog_topic) + ",\"partition\":" + std::to_string(r.partition) +
                       ",\"restored\":" + std::to_string(r.restored) + ",\"remaining\":" +
                       (r.remaining < 0 ? std::string("null") : std::to_string(r.remaining)) + "}";
                first_store = false;
            }
            out += "]}";
        }
        out += "]}";
    }
    return out + "]}\n";
}

std::map<std::string, status_server::handler> status_routes(const topology& t,
                                                            std::function<client_snapshot()> observe,
                                                            metric_registry& registry) {
    std::map<std::string, status_server::handler> routes;
    routes["/"] = [] { return http_reply{"text/html; charset=utf-8", page_html}; };
    routes["/metrics"] = [observe, &registry] {
        return http_reply{"text/plain; version=0.0.4; charset=utf-8", to_prometheus(registry.samples(observe()))};
    };
    routes["/tasks"] = [observe, &registry] {
        const client_snapshot c = observe();
        return http_reply{"application/json", tasks_json(c, registry.samples(c))};
    };
    routes["/topology"] = [&t, observe, &registry] {
        const client_snapshot c = observe();
        render_options o{c.application_id, {}};
        for (const auto& s : registry.samples(c))
            if (s.group == "stream-processor-node-metrics" && s.name == "process-rate")
                o.node_rates[std::string(s.tag("processor-node-id"))] += s.value;
        return http_reply{"image/svg+xml", topology_svg(t, o)};
    };
    routes["/topology.dot"] = [&t, observe] {
        return http_reply{"text/vnd.graphviz; charset=utf-8", to_dot(t, {observe().application_id, {}})};
    };
    routes["/topology.mmd"] = [&t, observe] {
        return http_reply{"text/plain; charset=utf-8", to_mermaid(t, {observe().application_id, {}})};
    };
    return routes;
}

}  // namespace kstreams::detail
