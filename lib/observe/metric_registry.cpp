#include "lib/observe/metric_registry.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "lib/observe/e2e_latency.hpp"
#include "lib/observe/latency.hpp"
#include "lib/observe/user_sensors.hpp"
#include "lib/state/store_counters.hpp"

namespace kstreams::detail {

namespace {

using tags = std::vector<std::pair<std::string, std::string>>;
constexpr double nan = std::numeric_limits<double>::quiet_NaN();

std::string key_of(const std::string& group, const std::string& name, const tags& t) {
    std::string k = group + "/" + name;
    for (const auto& [a, b] : t) k += "|" + a + "=" + b;
    return k;
}

double counter(const kstreams::metrics& m, std::string_view name) { return static_cast<double>(m.value(name)); }

}  // namespace

void metric_registry::user_sensor_samples(const thread_snapshot& th, clock::time_point now,
                                          std::vector<metric_sample>& out) {
    namespace us = user_sensors;
    // A metric of the same name in several tasks of the thread is one (Kafka's sensors are per
    // thread): counts and sums add up, max and min over the tasks.
    struct aggregate {
        std::string description;
        sensor_stat stat = sensor_stat::count;
        double count = 0, sum = 0, max = nan, min = nan;
    };
    std::map<std::pair<std::string, tags>, aggregate> metrics;
    for (const auto& t : th.tasks) {
        const kstreams::metrics& tm = t.counters;
        for (auto it = tm.all().lower_bound(us::metric_prefix); it != tm.all().end() && it->first.starts_with(us::metric_prefix); ++it) {
            auto d = us::parse_descriptor(it->first, it->second);
            if (!d) continue;
            for (auto& [k, v] : d->name.tags)
                if (v == us::thread_id_placeholder) v = th.thread_id;
            aggregate& a = metrics[{d->name.group + "/" + d->name.name, d->name.tags}];
            a.description = d->name.description;
            a.stat = d->stat;
            const double count = counter(tm, us::aggregate(d->sensor, "count"));
            a.count += count;
            a.sum += us::from_fixed(tm.value(us::aggregate(d->sensor, "sum")));
            if (count > 0) {
                const double mx = us::from_fixed(tm.value(us::aggregate(d->sensor, "max")));
                const double mn = us::from_fixed(tm.value(us::aggregate(d->sensor, "min")));
                a.max = std::isnan(a.max) ? mx : std::max(a.max, mx);
                a.min = std::isnan(a.min) ? mn : std::min(a.min, mn);
            }
        }
    }
    for (const auto& [key, a] : metrics) {
        const auto slash = key.first.find('/');
        const std::string group = key.first.substr(0, slash), name = key.first.substr(slash + 1);
        const std::string history = key_of(group, name, key.second);
        double value = 0;
        metric_kind kind = metric_kind::gauge;
        switch (a.stat) {
            case sensor_stat::count: value = a.count; kind = metric_kind::counter; break;
            case sensor_stat::total: value = a.sum; kind = metric_kind::counter; break;
            case sensor_stat::max: value = a.max; break;
            case sensor_stat::min: value = a.min; break;
            case sensor_stat::rate: {
                const delta d = grown(history, a.count, now);
                value = d.seconds > 0 ? d.value / d.seconds : 0.0;
                break;
            }
            case sensor_stat::sum_rate: {
                const delta d = grown(history, a.sum, now);
                value = d.seconds > 0 ? d.value / d.seconds : 0.0;
                break;
            }
            case sensor_stat::avg: {
                const delta sum = grown(history + "|sum", a.sum, now);
                const delta count = grown(history + "|count", a.count, now);
                value = count.value > 0 ? sum.value / count.value : nan;
                break;
            }
        }
        out.push_back({group, name, a.description, key.second, value, kind});
    }
}

metric_registry::delta metric_registry::grown(const std::string& key, double total, clock::time_point now) {
    auto& h = history_[key];
    if (h.empty()) h.emplace_back(start_, 0.0);
    if (total < h.back().second) {  // the counter started again (a replaced thread, a new task)
        h.clear();
        h.emplace_back(now, 0.0);
    }
    // Keep the newest point at least `window` old as the base.
    while (h.size() >= 2 && h[1].first <= now - window) h.pop_front();
    if (h.size() >= 2 && now - h.back().first < std::chrono::milliseconds(100)) h.back() = {now, total};
    else h.emplace_back(now, total);
    const auto span = std::chrono::duration<double>(now - h.front().first).count();
    return {total - h.front().second, span};
}

std::vector<metric_sample> metric_registry::samples(const client_snapshot& client) {
    std::lock_guard lock(mutex_);
    const auto now = clock::now();
    std::vector<metric_sample> out;
    auto add = [&](std::string group, std::string name, std::string description, tags t, double value,
                   metric_kind kind = metric_kind::gauge) {
        out.push_back({std::move(group), std::move(name), std::move(description), std::move(t), value, kind});
    };
    // `<name>-total` and `<name>-rate` (per second over the window) of a counter.
    auto total_and_rate = [&](const std::string& group, const std::string& name, const std::string& what,
                              const tags& t, double total) {
        add(group, name + "-total", "The total number of " + what, t, total, metric_kind::counter);
        const delta d = grown(key_of(group, name + "-total", t), total, now);
        add(group, name + "-rate", "The average number of " + what + " per second", t,
            d.seconds > 0 ? d.value / d.seconds : 0.0);
    };
    // Kafka's `<op>-latency-avg` / `-max` in milliseconds from the ns counters of latency.hpp.
    auto latency = [&](const std::string& group, const std::string& op, const std::string& what, const tags& t,
                       const kstreams::metrics& m, double max_ns) {
        const delta sum = grown(key_of(group, op + "-latency-ns", t), counter(m, op + "-latency-ns-total"), now);
        const delta count = grown(key_of(group, op + "-count", t), counter(m, op + "-total"), now);
        add(group, op + "-latency-avg", "The average " + what + " latency in ms", t,
            count.value > 0 ? sum.value / count.value / 1e6 : nan);
        add(group, op + "-latency-max", "The maximum " + what + " latency in ms", t,
            count.value > 0 || max_ns > 0 ? max_ns / 1e6 : nan);
    };

    // ---- client: stream-metrics
    const tags client_tags{{"client-id", client.client_id}};
    int alive = 0;
    for (const auto& t : client.threads) alive += t.alive ? 1 : 0;
    add("stream-metrics", "alive-stream-threads", "The current number of alive stream threads that are running or "
        "participating in rebalance", client_tags, alive);
    add("stream-metrics", "state", "The state of the Kafka Streams client (1 for the current state, as a label)",
        {{"client-id", client.client_id}, {"state", client.state}}, 1);

    for (const auto& th : client.threads) {
        const tags thread_tags{{"thread-id", th.thread_id}};
        const kstreams::metrics& m = th.counters;
        const std::string g = "stream-thread-metrics";
        // ---- thread: stream-thread-metrics
        total_and_rate(g, "process", "records processed", thread_tags, counter(m, metric::records_processed));
        latency(g, "process", "processing (a round of the thread's tasks)", thread_tags, m,
                counter(m, "process-latency-ns-max"));
        total_and_rate(g, "commit", "commit calls", thread_tags, counter(m, "commit-total"));
        latency(g, "commit", "commit", thread_tags, m, counter(m, "commit-latency-ns-max"));
        total_and_rate(g, "poll", "poll calls", thread_tags, counter(m, "poll-total"));
        total_and_rate(g, "task-created", "tasks created", thread_tags, counter(m, internal_metric::task_created));
        total_and_rate(g, "task-closed", "tasks closed", thread_tags, counter(m, internal_metric::task_closed));
        latency(g, "poll", "poll", thread_tags, m, counter(m, "poll-latency-ns-max"));
        double punctuate_max = 0;
        for (const auto& t : th.tasks) punctuate_max = std::max(punctuate_max, counter(t.counters, "punctuate-latency-ns-max"));
        total_and_rate(g, "punctuate", "punctuate calls", thread_tags, counter(m, "punctuate-total"));
        latency(g, "punctuate", "punctuate", thread_tags, m, punctuate_max);

        // ---- the thread's clients: producer-metrics, consumer-fetch-manager-metrics
        const tags producer_tags{{"client-id", th.thread_id + "-producer"}};
        total_and_rate("producer-metrics", "record-send", "records sent", producer_tags,
                       counter(m, metric::records_produced));
        const std::string consumer_id = th.thread_id + "-consumer";
        double lag_max = nan;
        for (const auto& [name, value] : m.all()) {
            if (!name.starts_with(metric::records_lag_prefix)) continue;
            const std::string tp = name.substr(metric::records_lag_prefix.size());
            const auto dot = tp.rfind('.');
            if (dot == std::string::npos) continue;
            add("consumer-fetch-manager-metrics", "records-lag", "The latest lag of the partition",
                {{"client-id", consumer_id}, {"topic", tp.substr(0, dot)}, {"partition", tp.substr(dot + 1)}},
                static_cast<double>(value));
            lag_max = std::isnan(lag_max) ? static_cast<double>(value) : std::max(lag_max, static_cast<double>(value));
        }
        add("consumer-fetch-manager-metrics", "records-lag-max",
            "The maximum lag in terms of number of records for any partition", {{"client-id", consumer_id}}, lag_max);

        user_sensor_samples(th, now, out);

        // ---- tasks: stream-task-metrics, stream-processor-node-metrics, stream-state-metrics
        for (const auto& t : th.tasks) {
            const kstreams::metrics& tm = t.counters;
            const std::string task = t.id.to_string();
            const tags task_tags{{"thread-id", th.thread_id}, {"task-id", task}};
            const std::string tg = "stream-task-metrics";
            total_and_rate(tg, "process", "records processed", task_tags, counter(tm, metric::records_processed));
            // Kafka's task-level dropped-records counts every record dropped: by a processor
            // (null key, late, ...), a deserialization error or an invalid timestamp skipped.
            total_and_rate(tg, "dropped-records", "records dropped", task_tags,
                           counter(tm, metric::dropped_records) + counter(tm, metric::skipped_deserialization) +
                               counter(tm, metric::skipped_invalid_timestamp));
            for (const auto& [name, value] : tm.all()) {
                std::string reason;
                if (name.starts_with("dropped-records.")) reason = name.substr(16);
                else if (name.starts_with("skipped-records.")) reason = name.substr(16);
                if (reason.empty()) continue;
                tags rt = task_tags;
                rt.emplace_back("reason", reason);
                add(tg, "dropped-records-by-reason-total",
                    "(kstreams) The total number of records dropped, by reason", std::move(rt),
                    static_cast<double>(value), metric_kind::counter);
            }
            // Recovery by recomputation (kstreams): records processed again after a restart
            // because a commit held them for open windows, and per input partition how many
            // records past its committed offset are held now.
            for (const auto& [name, value] : tm.all()) {
                if (name == "records-replayed") {
                    total_and_rate(tg, "replayed-records", "records processed again after a restart (kstreams: recovery by recomputation)",
                                   task_tags, static_cast<double>(value));
                } else if (name.starts_with("commit-held-records.")) {
                    const std::string tp = name.substr(20);
                    const auto dot = tp.rfind('.');
                    if (dot == std::string::npos) continue;
                    tags pt = task_tags;
                    pt.emplace_back("topic", tp.substr(0, dot));
                    pt.emplace_back("partition", tp.substr(dot + 1));
                    add(tg, "commit-held-records",
                        "(kstreams) records processed past the partition's committed offset, held for open windows",
                        std::move(pt), static_cast<double>(value));
                }
            }
            total_and_rate(tg, "restore", "records restored", task_tags, static_cast<double>(t.restored));
            double remaining = 0;
            for (const auto& r : th.restoring)
                if (r.task == t.id && r.remaining > 0) remaining += static_cast<double>(r.remaining);
            add(tg, "restore-remaining-records-total", "The number of records remaining to be restored", task_tags,
                remaining);
            add(tg, "active-restoring", "(kstreams) 1 while the task restores its stores, else 0", task_tags,
                t.restoring ? 1 : 0);
            // record-e2e-latency of the task's sources and sinks (INFO, as Kafka's).
            for (const auto& [name, value] : tm.all()) {
                if (!name.starts_with(internal_metric::e2e_latency_prefix) || !name.ends_with(".count")) continue;
                const std::string node = name.substr(internal_metric::e2e_latency_prefix.size(),
                                                     name.size() - internal_metric::e2e_latency_prefix.size() - 6);
                const std::string prefix = std::string(internal_metric::e2e_latency_prefix) + node + ".";
                tags nt = task_tags;
                nt.emplace_back("processor-node-id", node);
                const std::string ng = "stream-processor-node-metrics";
                const delta sum = grown(key_of(ng, "e2e-sum", nt), counter(tm, prefix + "sum"), now);
                const delta count = grown(key_of(ng, "e2e-count", nt), static_cast<double>(value), now);
                const bool seen = value > 0;
                add(ng, "record-e2e-latency-avg", "The average end-to-end latency of a record, in ms", nt,
                    count.value > 0 ? sum.value / count.value : nan);
                add(ng, "record-e2e-latency-min", "The minimum end-to-end latency of a record, in ms", nt,
                    seen ? counter(tm, prefix + "min") : nan);
                add(ng, "record-e2e-latency-max", "The maximum end-to-end latency of a record, in ms", nt,
                    seen ? counter(tm, prefix + "max") : nan);
            }
            if (client.level == metrics_recording_level::info) continue;
            std::map<std::string, std::string, std::less<>> scope_of;  // store -> Kafka's metrics scope
            std::optional<double> cache_bytes;  // over the task's caching stores
            for (const auto& [name, value] : tm.all()) {
                if (name.starts_with(state::cache_bytes_prefix)) cache_bytes = cache_bytes.value_or(0) + static_cast<double>(value);
                if (!name.starts_with("store-scope.")) continue;
                const auto dot = name.rfind('.');
                if (dot > 12) scope_of[name.substr(12, dot - 12)] = name.substr(dot + 1);
            }
            if (cache_bytes)
                add(tg, "cache-size-bytes-total", "The total size in bytes of this task's cache", task_tags, *cache_bytes);
            // The average over the sampling window of a sum and a count that only grow; nan when
            // nothing was counted in it.
            auto window_average = [&](const std::string& history, const tags& t, double sum_total, double count_total) {
                const delta sum = grown(key_of("stream-state-metrics", history + "-sum", t), sum_total, now);
                const delta count = grown(key_of("stream-state-metrics", history + "-count", t), count_total, now);
                return std::pair{count.value > 0 ? sum.value / count.value : nan, count.value};
            };
            // A store's tags: the task's and `<scope>-state-id` (Kafka's store-supplier scope).
            auto state_tags = [&](const std::string& store) {
                tags st = task_tags;
                const auto scope = scope_of.find(store);
                st.emplace_back(scope == scope_of.end() ? "state-id" : scope->second + "-state-id", store);
                return st;
            };
            for (const auto& [name, value] : tm.all()) {
                if (name.starts_with(internal_metric::node_process_prefix)) {
                    tags nt = task_tags;
                    nt.emplace_back("processor-node-id", name.substr(internal_metric::node_process_prefix.size()));
                    total_and_rate("stream-processor-node-metrics", "process", "records processed", nt,
                                   static_cast<double>(value));
                } else if (name.starts_with(state::cache_hit_ratio_prefix) && name.ends_with(".count")) {
                    // Kafka's stream-record-cache-metrics: recorded at each hit, the share of hits
                    // among the cache's reads so far; avg, min and max of those over the window.
                    const std::string prefix = name.substr(0, name.size() - 5);  // up to "<store>."
                    const std::string store = prefix.substr(state::cache_hit_ratio_prefix.size(),
                                                            prefix.size() - state::cache_hit_ratio_prefix.size() - 1);
                    tags ct = task_tags;
                    ct.emplace_back("record-cache-id", store);
                    constexpr double ppm = 1e6;
                    const auto [avg, counted] = window_average("hit-ratio", ct, counter(tm, prefix + "sum"), static_cast<double>(value));
                    add("stream-record-cache-metrics", "hit-ratio-avg", "The average cache hit ratio", ct, avg / ppm);
                    add("stream-record-cache-metrics", "hit-ratio-min", "The minimum cache hit ratio", ct,
                        counted > 0 ? counter(tm, prefix + "min") / ppm : nan);
                    add("stream-record-cache-metrics", "hit-ratio-max", "The maximum cache hit ratio", std::move(ct),
                        counted > 0 ? counter(tm, prefix + "max") / ppm : nan);
                } else if (name.starts_with("suppression-buffer-") && name.ends_with(".sum")) {
                    // Kafka's suppression-buffer-size/-count avg and max (here the max since the
                    // task started, not over the sampling window) from the buffer's counters.
                    const auto dot = name.find('.');
                    const std::string metric = name.substr(0, dot);  // suppression-buffer-size|count
                    const std::string prefix = name.substr(0, name.size() - 3);  // up to "<store>."
                    const std::string store = name.substr(dot + 1, name.size() - dot - 5);
                    tags st = state_tags(store);
                    const std::string what = metric.ends_with("size") ? "size" : "count";
                    const double avg = window_average(metric, st, static_cast<double>(value), counter(tm, prefix + "count")).first;
                    add("stream-state-metrics", metric + "-avg", "The average " + what + " of buffered records", st, avg);
                    add("stream-state-metrics", metric + "-max", "The maximum " + what + " of buffered records",
                        std::move(st), counter(tm, prefix + "count") > 0 ? counter(tm, prefix + "max") : nan);
                } else if (name.starts_with(state::store_latency_prefix) && name.ends_with("-latency-ns-total")) {
                    // Kafka's `<op>-latency-avg` / `-max` of a state store: in ns (its thread-level
                    // latencies are in ms), over the sampling window.
                    const std::string base = name.substr(0, name.size() - std::string_view("-latency-ns-total").size());
                    const auto dot = base.rfind('.');
                    if (dot <= state::store_latency_prefix.size()) continue;
                    const std::string store = base.substr(state::store_latency_prefix.size(), dot - state::store_latency_prefix.size());
                    const std::string op = base.substr(dot + 1);
                    tags st = state_tags(store);
                    const auto [avg, counted] = window_average(op + "-latency", st, static_cast<double>(value), counter(tm, base + "-total"));
                    add("stream-state-metrics", op + "-latency-avg", "The average latency in ns of " + op + " operations", st, avg);
                    add("stream-state-metrics", op + "-latency-max", "The maximum latency in ns of " + op + " operations",
                        std::move(st), counted > 0 ? counter(tm, base + "-latency-ns-max") : nan);
                } else if (name.starts_with("store.")) {
                    const auto dot = name.rfind('.');
                    if (dot <= 6) continue;
                    const std::string store = name.substr(6, dot - 6);
                    tags st = state_tags(store);
                    const std::string op = name.substr(dot + 1);
                    const delta d = grown(key_of("stream-state-metrics", op, st), static_cast<double>(value), now);
                    add("stream-state-metrics", op + "-rate", "The average number of " + op + " calls per second",
                        std::move(st), d.seconds > 0 ? d.value / d.seconds : 0.0);
                }
            }
        }
    }

    // ---- the standby updater, as Kafka's state updater (KIP-869): stream-state-updater-metrics
    // and each standby task's update-total/-rate. Active tasks restore on their stream threads
    // here; their restoring count is the client's.
    {
        const std::string updater_thread = client.client_id + "-StateUpdater-1";
        const tags updater_tags{{"thread-id", updater_thread}};
        const std::string ug = "stream-state-updater-metrics";
        double active_restoring = 0;
        for (const auto& th : client.threads)
            for (const auto& t : th.tasks) active_restoring += t.restoring ? 1 : 0;
        add(ug, "active-restoring-tasks", "The number of active tasks currently undergoing restoration", updater_tags,
            active_restoring);
        add(ug, "standby-updating-tasks", "The number of standby tasks currently undergoing state update",
            updater_tags, static_cast<double>(client.standbys.size()));
        for (const auto& sb : client.standbys) {
            const tags task_tags{{"thread-id", updater_thread}, {"task-id", sb.id.to_string()}};
            total_and_rate("stream-task-metrics", "update", "records updated", task_tags,
                           static_cast<double>(sb.updated));
        }
    }

    // Forget the history of what is gone (moved tasks, replaced threads).
    if (now - last_prune_ > window) {
        last_prune_ = now;
        std::erase_if(history_, [&](const auto& kv) { return kv.second.back().first < now - 2 * window; });
    }
    return out;
}

}  // namespace kstreams::detail
