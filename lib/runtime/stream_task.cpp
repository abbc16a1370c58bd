#include "lib/runtime/stream_task.hpp"

#include <algorithm>
#include <cstring>
#include <regex>
#include <stdexcept>

#include <kstreams/detail/recompute_store.hpp>
#include <kstreams/detail/sink_node.hpp>
#include <kstreams/error.hpp>

#include "lib/core/log.hpp"
#include "lib/runtime/checkpoint.hpp"
#include "lib/runtime/error_handling.hpp"
#include "lib/state/corrupted_store.hpp"
#include "lib/state/record_cache.hpp"

namespace kstreams::detail {

namespace {

/// Stands in for a node among its parent's children (the parent forwards to it); processing_failed
/// looks through it to the node it wraps.
class stand_in_node : public node {
public:
    explicit stand_in_node(node& inner) : node(inner.name()), inner_(inner) {}
    const node& inner() const { return inner_; }

protected:
    node& inner_;
};

/// Counts the records the wrapped node is given (Kafka's processor-node process-total;
/// metrics.recording.level DEBUG only: one more virtual call per node and record).
class counting_node final : public stand_in_node {
public:
    counting_node(node& inner, std::uint64_t& count) : stand_in_node(inner), count_(count) {}
    void process_erased(const void* rec) override {
        ++count_;
        inner_.process_erased(rec);
    }

private:
    std::uint64_t& count_;
};

/// Stands in for a terminal processor (no children, not a sink) and records the e2e latency of
/// each record it processed, as Kafka's record-e2e-latency at terminal nodes (INFO level): after
/// process() returned, so a record the processor threw on is not recorded.
class terminal_latency_node final : public stand_in_node {
public:
    terminal_latency_node(node& inner, const task_context& task, e2e_latency_recorder recorder, const std::int64_t& now_ms)
        : stand_in_node(inner), task_(task), recorder_(std::move(recorder)), now_ms_(now_ms) {}
    void process_erased(const void* rec) override {
        const std::int64_t timestamp = task_.current_record().timestamp;
        inner_.process_erased(rec);
        recorder_.record(timestamp, now_ms_);
    }

private:
    const task_context& task_;
    e2e_latency_recorder recorder_;
    const std::int64_t& now_ms_;
};

}  // namespace

/// record-e2e-latency at one sink, timed with the task's wall clock of the turn.
class stream_task::sink_latency final : public e2e_latency_sensor {
public:
    sink_latency(kstreams::metrics& m, std::string_view sink, const std::int64_t& now_ms)
        : recorder_(m, sink), now_ms_(now_ms) {}
    void record(std::int64_t timestamp) override { recorder_.record(timestamp, now_ms_); }

private:
    e2e_latency_recorder recorder_;
    const std::int64_t& now_ms_;
};

/// Forwards every send; first marks the current record context's raw bytes released (Kafka's
/// RecordCollectorImpl frees them once a sink's record is serialized, before it is sent).
class stream_task::raw_releasing_collector final : public record_collector {
public:
    raw_releasing_collector(record_collector& next, record_context& current) : next_(next), current_(current) {}
    void send(std::string_view topic, std::optional<std::int32_t> partition, std::optional<std::string_view> key,
              std::optional<std::string_view> value, std::int64_t timestamp, const headers& hdrs,
              std::string_view sink_node) override {
        current_.raw_released = true;
        next_.send(topic, partition, key, value, timestamp, hdrs, sink_node);
    }
    std::int32_t partition_count(std::string_view topic) override { return next_.partition_count(topic); }

private:
    record_collector& next_;
    record_context& current_;
};

namespace {

std::string internal_name(const task_environment& env, const std::string& topic) {
    return env.application_id + "-" + topic;
}
}  // namespace

stream_task::stream_task(const topology_model& model, const topology_groups& groups, const subtopology_group& sub,
                         kstreams::task_id id, task_environment& env)
    : model_(model), groups_(groups), sub_(sub), id_(id), env_(env) {}

stream_task::~stream_task() {
    if (initialized_) {
        try {
            close();
        } catch (const std::exception& e) {
            KSTREAMS_LOG(error, "task " + id_.to_string() + ": error while closing: " + e.what());
        }
    }
}

void stream_task::init() {
    init_stores();
    initialized_ = false;  // until the processors are, too
    init_processors();
    initialized_ = true;
}

void stream_task::init_stores() {
    keep_raw_ = env_.errors && env_.errors->reads_raw_records;
    resources_ = env_.stores;
    resources_.metrics = env_.metrics;
    resources_.time_store_operations = env_.recording_level != metrics_recording_level::info;
    for (std::size_t s : sub_.stores) {
        const auto& builder = *model_.stores[s].builder;
        auto [it, inserted] = stores_.emplace(builder.name(), detail::build_store(builder, env_.default_dsl_store));
        if (inserted) store_order_.push_back(it->second.get());
        if (as_recompute(builder)) {
            if (it->second->persistent())
                throw topology_error("store " + builder.name() + ": recovery::recompute keeps a store in memory, but "
                                     "its supplier makes a persistent one");
            recompute_stores_.insert(builder.name());
        }
        if (builder.logging_enabled()) {
            changelog_topic_of_.emplace(builder.name(), env_.application_id + "-" + builder.name() + "-changelog");
        } else if (const std::string& topic = model_.stores[s].source_topic_changelog; !topic.empty()) {
            changelog_topic_of_.emplace(builder.name(), topic);
            source_changelog_stores_.insert(builder.name());
        }
    }
    // Persistent stores keep files in the task directory: take it for this instance alone.
    if (has_persistent_stores() && !env_.state_dir.empty()) {
        dir_lock_ = state::task_directory_lock(task_directory(), env_.state_lock_wait);
        drop_stores_of_unreadable_checkpoint();
        if (env_.exactly_once) drop_stores_without_checkpoint();
    }
    for (state_store* store : store_order_) store->init(*this);
    initialized_ = true;  // close() closes the stores
}

void stream_task::init_processors() {
    std::unordered_map<std::size_t, node*> by_index;
    for (std::size_t idx : sub_.nodes) {
        const node_def& def = model_.nodes[idx];
        std::unique_ptr<node> n = def.make();
        if (def.kind == node_kind::sink && def.internal_topic) {
            auto* sink = static_cast<sink_node_base*>(n.get());
            sink->set_topic(internal_name(env_, def.topic));
        }
        if (def.kind == node_kind::source) {
            auto* src = static_cast<source_node*>(n.get());
            for (const auto& t : def.topics)
                sources_by_topic_.emplace(def.internal_topic ? internal_name(env_, t) : t, src);
            if (def.pattern) pattern_sources_.emplace_back(*def.pattern, src);
            sources_.push_back({src, &def, std::nullopt, nullptr});
        }
        by_index.emplace(idx, n.get());
        node_def_index_.emplace(n.get(), idx);
        nodes_.push_back(std::move(n));
    }
    if (env_.metrics) {
        punctuate_latency_.emplace(*env_.metrics, "punctuate");
        for (source_slot& slot : sources_) slot.latency.emplace(*env_.metrics, slot.source->name());
        for (std::size_t idx : sub_.nodes) {
            const node* n = by_index.at(idx);
            if (model_.nodes[idx].kind == node_kind::sink && env_.collector)
                sink_latencies_.emplace(n, std::make_unique<sink_latency>(*env_.metrics, n->name(), turn_now_ms_));
        }
    }
    std::unordered_map<std::size_t, node*> wired = by_index;  // what parents see: the node or its stand-in
    if (env_.node_metrics && env_.metrics) {
        for (std::size_t idx : sub_.nodes) {
            node* n = by_index.at(idx);
            std::uint64_t& count = env_.metrics->counter(std::string(internal_metric::node_process_prefix) + n->name());
            if (model_.nodes[idx].kind == node_kind::source) {
                slot_of(static_cast<const source_node&>(*n))->count = &count;
                continue;
            }
            counting_nodes_.push_back(std::make_unique<counting_node>(*n, count));
            wired[idx] = counting_nodes_.back().get();
        }
    }
    if (env_.metrics) {
        for (std::size_t idx : sub_.nodes) {
            if (model_.nodes[idx].kind != node_kind::processor || !groups_.children[idx].empty()) continue;
            node& n = *by_index.at(idx);
            counting_nodes_.push_back(std::make_unique<terminal_latency_node>(
                *wired.at(idx), *this, e2e_latency_recorder(*env_.metrics, n.name()), turn_now_ms_));
            wired[idx] = counting_nodes_.back().get();
        }
    }
    for (std::size_t idx : sub_.nodes)
        for (std::size_t child : groups_.children[idx]) by_index.at(idx)->add_child(wired.at(child));
    for (auto& n : nodes_) n->init(*this);
}

source_node* stream_task::source_for(std::string_view topic) {
    if (auto it = sources_by_topic_.find(topic); it != sources_by_topic_.end()) return it->second;
    for (const auto& [pattern, src] : pattern_sources_) {
        if (std::regex_match(std::string(topic), std::regex(pattern))) {
            sources_by_topic_.emplace(std::string(topic), src);
            return src;
        }
    }
    return nullptr;
}

std::int64_t stream_task::extract_timestamp(source_node& src, const raw_record& raw, std::int64_t partition_time) {
    const source_slot* slot = slot_of(src);
    if (!slot) throw std::invalid_argument("task " + id_.to_string() + ": " + src.name() + " is not a source of this task");
    const node_def& def = *slot->def;
    const timestamp_extractor& extractor = def.extractor ? def.extractor : env_.default_extractor;
    if (!extractor) {
        if (raw.timestamp < 0)
            throw streams_error("task " + id_.to_string() + ": record at topic " + std::string(raw.topic) +
                                ", partition " + std::to_string(raw.partition) + ", offset " +
                                std::to_string(raw.offset) + " has an invalid (negative) timestamp " +
                                std::to_string(raw.timestamp) +
                                "; use a timestamp extractor that skips or repairs such records");
        return raw.timestamp;
    }
    const std::int64_t ts = extractor(raw, partition_time);
    if (ts < 0) {
        ++metrics().counter(metric::skipped_invalid_timestamp);
        KSTREAMS_LOG(warn, "task " + id_.to_string() + ": skipping record at topic " + std::string(raw.topic) +
                               ", partition " + std::to_string(raw.partition) + ", offset " +
                               std::to_string(raw.offset) + ": the timestamp extractor returned " +
                               std::to_string(ts));
    }
    return ts;
}

namespace {
// Sizes first, then the bytes: inline, where std::string's operator== calls out for the compare.
bool same_topic(const std::string& a, std::string_view b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), b.size()) == 0;
}
}  // namespace

void stream_task::note_processed(const raw_record& raw) {
    // Runs of records come from one partition: the entry matched last first.
    if (last_processed_ < processed_.size()) {
        processed_offset& last = processed_[last_processed_];
        if (last.partition == raw.partition && same_topic(last.topic, raw.topic)) {
            last.offset = raw.offset;
            return;
        }
    }
    for (std::size_t i = 0; i < processed_.size(); ++i) {
        processed_offset& p = processed_[i];
        if (p.partition == raw.partition && same_topic(p.topic, raw.topic)) {
            p.offset = raw.offset;
            last_processed_ = i;
            return;
        }
    }
    last_processed_ = processed_.size();
    processed_.push_back({std::string(raw.topic), raw.partition, raw.offset});
}

std::map<std::string, std::map<std::int32_t, std::int64_t>> stream_task::position() const {
    std::map<std::string, std::map<std::int32_t, std::int64_t>> out;
    for (const auto& p : processed_) out[p.topic][p.partition] = p.offset;
    return out;
}

bool stream_task::process(source_node& src, const raw_record& raw, std::int64_t timestamp, std::int64_t now_ms) {
    skipped_ = false;
    turn_now_ms_ = now_ms;
    source_slot* slot = slot_of(src);
    if (slot && slot->latency) slot->latency->record(timestamp, now_ms);
    if (timestamp > stream_time_) stream_time_ = timestamp;
    metadata_ = {raw.topic, raw.partition, raw.offset};
    has_metadata_ = true;
    note_processed(raw);
    stored_override_ = false;
    stored_raw_.reset();
    raw_copy_.reset();
    current_record_ = {timestamp, nullptr};  // the source's forward adds the headers
    const auto guard = global_guard();
    if (slot && slot->count) ++*slot->count;
    raw_ = &raw;
    struct clear {
        stream_task& t;
        ~clear() {
            t.has_metadata_ = false;
            t.raw_ = nullptr;
        }
    } cleared{*this};
    try {
        src.process_raw(raw, timestamp);
    } catch (const streams_error&) {
        throw;
    } catch (const std::exception& e) {
        // What escapes the source (a sink's error right under it) fails the task: Kafka's
        // StreamTask hands no record's error to the processing handler, only its nodes do.
        throw streams_error("task " + id_.to_string() + ": exception while processing the record at topic " +
                            std::string(raw.topic) + ", partition " + std::to_string(raw.partition) + ", offset " +
                            std::to_string(raw.offset) + " (source " + src.name() + "): " + e.what());
    }
    return !skipped_;
}

void stream_task::record_punctuation(std::chrono::steady_clock::time_point started) {
    if (!punctuate_latency_) return;
    const auto now = std::chrono::steady_clock::now();
    punctuate_latency_->record(now - started, now);
}

bool stream_task::punctuate_stream_time() {
    if (stream_time_ < 0) return false;
    stream_punctuation_waiting_ = async_in_flight_ > 0 && stream_time_punctuations_.next_due() <= stream_time_;
    if (stream_punctuation_waiting_) return false;  // after the records in flight
    return stream_time_punctuations_.maybe_punctuate(stream_time_, [&](node& owner, punctuator& cb, std::int64_t now, bool) {
        current_record_ = {now, nullptr};  // a punctuation has no headers
        const auto guard = global_guard();
        const auto started = std::chrono::steady_clock::now();
        try {
            cb(now);
        } catch (const streams_error&) {
            throw;
        } catch (const std::exception& e) {
            processing_error(owner, "task " + id_.to_string() + ": exception in a stream-time punctuation of processor " +
                                        owner.name() + ": " + e.what());
        }
        record_punctuation(started);
    });
}

bool stream_task::maybe_punctuate_wall_clock() {
    const std::int64_t now = env_.wall_clock();
    wall_punctuation_waiting_ = async_in_flight_ > 0 && wall_clock_punctuations_.next_due() <= now;
    if (wall_punctuation_waiting_) return false;  // after the records in flight
    return wall_clock_punctuations_.maybe_punctuate(now, [&](node& owner, punctuator& cb, std::int64_t at, bool) {
        current_record_ = {at, nullptr};
        const auto guard = global_guard();
        const auto started = std::chrono::steady_clock::now();
        try {
            cb(at);
        } catch (const streams_error&) {
            throw;
        } catch (const std::exception& e) {
            processing_error(owner, "task " + id_.to_string() + ": exception in a wall-clock punctuation of processor " +
                                        owner.name() + ": " + e.what());
        }
        record_punctuation(started);
    });
}

cancellable stream_task::schedule(node& owner, std::chrono::milliseconds interval, punctuation_type type,
                                  punctuator callback) {
    if (interval.count() < 1)
        throw std::invalid_argument("processor " + owner.name() + ": punctuation interval must be at least 1 ms");
    if (type == punctuation_type::stream_time)
        // Aligned to 0, so it fires as soon as there is stream time.
        return stream_time_punctuations_.schedule(owner, 0, interval.count(), std::move(callback));
    return wall_clock_punctuations_.schedule(owner, env_.wall_clock() + interval.count(), interval.count(),
                                             std::move(callback));
}

state_store& stream_task::store(std::string_view name, const node& asker) {
    auto idx = node_def_index_.find(&asker);
    if (idx == node_def_index_.end()) throw topology_error("store " + std::string(name) + " asked for by an unknown node");
    const auto& connected = groups_.node_stores[idx->second];
    if (std::find(connected.begin(), connected.end(), name) == connected.end()) {
        if (env_.global_store)
            if (state_store* global = env_.global_store(name)) {
                if (env_.global_lock) reads_global_ = true;
                return *global;
            }
        throw topology_error("processor " + asker.name() + " is not connected to store " + std::string(name) +
                             "; connect it with add_state_store(..., {\"" + asker.name() +
                             "\"}) or connect_processor_and_state_stores");
    }
    return *stores_.at(std::string(name));
}

state_store* stream_task::find_store(std::string_view name) {
    auto it = stores_.find(name);
    return it == stores_.end() ? nullptr : it->second.get();
}

void stream_task::record_dropped(std::string_view reason_metric, const node& where) {
    // Recovery by recomputation replays records processed before the commit: their drops
    // (late records mostly) were counted then.
    if (holds_.replaying()) return;
    ++metrics().counter(metric::dropped_records);
    ++metrics().counter(reason_metric);
    std::string key = std::string(reason_metric) + "@" + where.name();
    if (!warned_[key]) {
        warned_[key] = true;
        KSTREAMS_LOG(warn, "task " + id_.to_string() + ", processor " + where.name() + ": dropping a record (" +
                               std::string(reason_metric) + ")" + this->where() +
                               "; further drops of this kind are only counted");
    }
}

void stream_task::deserialization_failed(const raw_record& raw, bool in_key, std::string_view what, const node& where) {
    const std::string msg = "task " + id_.to_string() + ": could not deserialize the " +
                            (in_key ? std::string("key") : std::string("value")) + " of the record at topic " +
                            std::string(raw.topic) + ", partition " + std::to_string(raw.partition) + ", offset " +
                            std::to_string(raw.offset) + " (source " + where.name() + "): " + std::string(what);
    if (env_.errors) {
        // deserialization.exception.handler (KIP-1034's response), in the source's catch block.
        const std::exception_ptr error = std::current_exception();
        const error_handler_context ctx = context_of(&raw, where.name(), id_, raw.timestamp);
        answer([&] { return env_.errors->deserialization(ctx, error); }, msg,
               "deserialization exception handler (deserialization.exception.handler)", *env_.collector, metrics(),
               where.name());
    } else if (env_.on_deserialization_error == deserialization_policy::fail) {
        throw streams_error(msg);
    }
    skipped_ = true;
    ++metrics().counter(metric::skipped_deserialization);
    KSTREAMS_LOG(warn, msg + "; skipped (log-and-continue)");
}

void stream_task::processing_failed(const node& where) {
    // Without handlers the exception travels up to the task, which names the source record. A
    // streams_error is the framework's (or a handler's "fail"): never handed to a handler again.
    if (!env_.errors) throw;
    // A sink's error is its parent's: Kafka's SinkNode has no processing-handler block, so the
    // processor that forwarded to it handles it (and drops the record for its later children),
    // and under a source it fails the task.
    const node* thrower = &where;
    while (const auto* stand_in = dynamic_cast<const stand_in_node*>(thrower)) thrower = &stand_in->inner();
    if (dynamic_cast<const sink_node_base*>(thrower)) throw;
    try {
        throw;
    } catch (const streams_error&) {
        throw;
    } catch (const std::exception& e) {
        processing_error(*thrower, "task " + id_.to_string() + ": exception in processor " + thrower->name() +
                                    " while processing a record" + this->where() + ": " + e.what());
    }
}

error_handler_context stream_task::node_error_context(const node& where) const {
    error_handler_context ctx = context_of(raw_, where.name(), id_, current_record_.timestamp);
    // As Kafka's record context: the headers of the record the node was given, and in a cache
    // flush the topic, partition, offset and raw key and value of the record that wrote the entry.
    if (current_record_.hdrs) ctx.headers = current_record_.hdrs;
    if (stored_override_) {
        ctx.topic = has_metadata_ ? metadata_.topic : std::string_view{};
        ctx.partition = has_metadata_ ? metadata_.partition : -1;
        ctx.offset = has_metadata_ ? metadata_.offset : -1;
        ctx.source_raw_key.reset();
        ctx.source_raw_value.reset();
        if (stored_raw_) {
            if (stored_raw_->key) ctx.source_raw_key = *stored_raw_->key;
            if (stored_raw_->value) ctx.source_raw_value = *stored_raw_->value;
        }
    }
    if (current_record_.raw_released) {
        ctx.source_raw_key.reset();
        ctx.source_raw_value.reset();
    }
    return ctx;
}

void stream_task::serialization_failed(const node& sink, std::string_view topic, std::optional<std::int32_t> partition,
                                       std::int64_t timestamp) {
    const std::exception_ptr error = std::current_exception();
    // Kafka's message; the processor that forwarded to the sink may handle it as its own error.
    const std::string what = "Unable to serialize record. ProducerRecord(topic=[" + std::string(topic) + "], partition=[" +
                             (partition ? std::to_string(*partition) : std::string("null")) + "], timestamp=[" +
                             std::to_string(timestamp) + "]): " + describe(error);
    if (!env_.errors) throw std::runtime_error(what);
    const error_handler_context ctx = node_error_context(sink);
    const failed_record failed{topic, partition, std::nullopt, std::nullopt, timestamp};
    handler_response response;
    try {
        response = env_.errors->production(ctx, failed, error);
    } catch (const std::exception& e) {
        throw streams_error("task " + id_.to_string() + ": " + what +
                            "; fatal user code error in the production exception handler (production.exception.handler): " +
                            e.what());
    }
    send_dead_letter_records(response, *env_.collector, metrics(), sink.name());
    if (response.result != handler_result::resume) throw std::runtime_error(what);  // retry fails, as Kafka's
    ++metrics().counter(metric::dropped_records);
    ++metrics().counter(metric::dropped_production_error);
    KSTREAMS_LOG(warn, "task " + id_.to_string() + ", sink " + sink.name() + ": " + what +
                           "; dropped (production.exception.handler: continue)");
}

void stream_task::processing_error(const node& where, const std::string& what) {
    if (!env_.errors) throw streams_error(what);
    const std::exception_ptr error = std::current_exception();
    const error_handler_context ctx = node_error_context(where);
    answer([&] { return env_.errors->processing(ctx, error); }, what,
           "processing exception handler (processing.exception.handler)", *env_.collector, metrics(), where.name());
    ++metrics().counter(metric::dropped_records);
    ++metrics().counter(dropped_processing_error_metric);
    KSTREAMS_LOG(warn, what + "; dropped (processing.exception.handler: continue)");
}

std::string stream_task::where() const {
    if (!has_metadata_) return " inside a punctuation";
    return " at topic " + std::string(metadata_.topic) + ", partition " + std::to_string(metadata_.partition) +
           ", offset " + std::to_string(metadata_.offset);
}

record_collector& stream_task::collector() {
    // Only error handlers read raw bytes: without them nothing needs to know they were released.
    if (!keep_raw_) return *env_.collector;
    if (!raw_releasing_) raw_releasing_ = std::make_unique<raw_releasing_collector>(*env_.collector, current_record_);
    return *raw_releasing_;
}

e2e_latency_sensor* stream_task::e2e_latency_at(const node& n) {
    auto it = sink_latencies_.find(&n);
    return it == sink_latencies_.end() ? nullptr : it->second.get();
}

void stream_task::flush() {
    const auto guard = global_guard();  // the caches forward downstream
    if (!sink_latencies_.empty() && env_.wall_clock) turn_now_ms_ = env_.wall_clock();  // what the flush sends
    if (!holds_.empty()) {
        // Owners emitting on window close emit what closed, before the caches below flush.
        current_record_ = {stream_time_, nullptr};
        holds_.before_commit();
    }
    for (state_store* store : store_order_) store->flush_cache();
}

std::optional<state::restore_origin> stream_task::restore_origin_of(const restore_record& r, headers& scratch) const {
    const restore_record* first = restoring_.records.data();
    if (!restoring_.details || !restoring_.tp || &r < first || &r >= first + restoring_.records.size()) return std::nullopt;
    const auto i = static_cast<std::size_t>(&r - first);
    return state::restore_origin{restoring_.tp->topic, restoring_.tp->partition, restoring_.details->offset_of(i),
                                 &restoring_.details->headers_of(i, scratch)};
}

std::optional<std::int64_t> stream_task::processor_metadata_for_key(std::string_view key) const {
    auto it = processor_metadata_.find(key);
    if (it == processor_metadata_.end()) return std::nullopt;
    return it->second;
}

void stream_task::add_processor_metadata(std::string_view key, std::int64_t value) {
    auto it = processor_metadata_.find(key);
    if (it == processor_metadata_.end()) processor_metadata_.emplace(std::string(key), value);
    else it->second = value;
}

std::string stream_task::commit_metadata(std::string_view topic, std::int32_t partition, std::int64_t committed,
                                        std::int64_t processed, std::int64_t partition_time) const {
    // As Kafka's, every commit carries the partition time (a restarted task resumes from it).
    std::string out = encode_topic_partition_metadata({partition_time, processor_metadata_});
    if (holds_.empty()) return out;
    return out + '|' + holds_.commit_metadata(topic, partition, committed, processed);
}

stream_task::recovered_metadata stream_task::recover(std::string_view topic, std::int32_t partition, std::string_view metadata) {
    recovered_metadata out;
    std::string_view holds = metadata;
    // Kafka's part first (base64 has no '|'), unless the metadata is the holds' alone (written
    // before every commit carried Kafka's part).
    if (!metadata.starts_with("kstreams-recompute:")) {
        const auto bar = metadata.find('|');
        holds = bar == std::string_view::npos ? std::string_view{} : metadata.substr(bar + 1);
        if (auto m = decode_topic_partition_metadata(metadata.substr(0, bar))) {
            out.partition_time = m->partition_time;
            // As Kafka's: each partition's processor metadata merged, a key's largest value kept.
            for (const auto& [key, value] : m->processors) {
                auto [it, added] = processor_metadata_.emplace(key, value);
                if (!added) it->second = std::max(it->second, value);
            }
        }
    }
    if (!holds_.empty() && !holds.empty()) out.replay_until = holds_.recover(topic, partition, holds);
    return out;
}

void stream_task::resume_stream_time(std::int64_t partition_time) {
    if (partition_time <= stream_time_) return;
    stream_time_ = partition_time;
    stream_punctuation_waiting_ = true;  // the next turn punctuates, with or without records
}

offset_hold* stream_task::offset_hold_of(std::string_view store, const node& owner) {
    if (!recompute_stores_.contains(store)) return nullptr;
    return holds_.owner(owner.name());
}

void stream_task::flush_stores() {
    for (state_store* store : store_order_) store->flush();
}

void stream_task::close(bool clean) {
    if (!initialized_) return;
    initialized_ = false;
    const auto guard = global_guard();
    // As Kafka's clean close: caches forward what they hold before processors and stores close.
    if (!clean && resources_.cache) resources_.cache->discard(cache_namespace(id_, ""));
    for (state_store* store : store_order_) store->flush_cache();
    for (auto& n : nodes_) n->close();
    for (state_store* store : store_order_) store->flush();
    for (state_store* store : store_order_) store->close();
    slots_.clear();
    dir_lock_.release();
}

std::filesystem::path stream_task::task_directory() const {
    if (env_.state_dir.empty()) return {};
    return env_.state_dir / id_.to_string();
}

void stream_task::wipe_store_directory(const std::string& store, const std::string& topic, const std::string& why) {
    std::error_code ec;
    const auto dir = state::store_directory(task_directory(), store);
    if (!std::filesystem::exists(dir, ec)) return;
    KSTREAMS_LOG(warn, "task " + id_.to_string() + ": store " + store + ": " + why + "; wiping " + dir.string() +
                           " and restoring the store from its changelog " + topic);
    std::filesystem::remove_all(dir, ec);
    if (ec)
        throw streams_error("task " + id_.to_string() + ": store " + store + ": cannot wipe " + dir.string() + ": " +
                            ec.message());
    ++metrics().counter(state::stores_wiped_metric);
}

void stream_task::drop_stores_of_unreadable_checkpoint() {
    bool unreadable = false;
    read_checkpoint(task_directory(), &unreadable);
    if (!unreadable) return;
    // It says nothing trustworthy about what the logged stores hold: wipe them, so that they are
    // restored from their changelogs. Stores without a changelog do not use it and are kept.
    for (const auto& [store, topic] : changelog_topic_of_)
        wipe_store_directory(store, topic, "the task's checkpoint file cannot be read");
    std::error_code ec;
    std::filesystem::remove(task_directory() / ".checkpoint", ec);
}

void stream_task::drop_stores_without_checkpoint() {
    // Under exactly-once the checkpoint is deleted while the task runs and written on a clean
    // close only (Kafka's rule): a store with files and no checkpoint was not closed cleanly and
    // may hold writes of a transaction that never committed.
    const checkpoint_offsets cp = read_checkpoint(task_directory());
    std::error_code ec;
    for (const auto& [store, topic] : changelog_topic_of_) {
        auto it = stores_.find(store);
        if (it == stores_.end() || !it->second->persistent() || cp.count({topic, id_.partition})) continue;
        const auto dir = state::store_directory(task_directory(), store);
        if (!std::filesystem::exists(dir, ec) || std::filesystem::is_empty(dir, ec)) continue;
        wipe_store_directory(store, topic,
                             "under exactly-once its task was not closed cleanly (no checkpoint), so its local "
                             "state may hold uncommitted writes");
    }
}

void stream_task::discard_checkpoint(std::string_view store_name) {
    auto it = changelog_topic_of_.find(store_name);
    if (it == changelog_topic_of_.end() || env_.state_dir.empty()) return;
    checkpoint_offsets cp = read_checkpoint(task_directory());
    if (cp.erase({it->second, id_.partition}) > 0) write_checkpoint(task_directory(), cp);
}

void stream_task::register_store(state_store& store, restore_callback restore) {
    auto it = changelog_topic_of_.find(store.name());
    if (it == changelog_topic_of_.end()) return;  // not logged: nothing to restore
    changelogs_.push_back({&store, it->second, std::move(restore), source_changelog_stores_.count(store.name()) > 0});
}

void stream_task::log_change(std::string_view store_name, std::string_view key, std::optional<std::string_view> value,
                             std::int64_t timestamp) {
    auto it = changelog_topic_of_.find(store_name);
    // A standby task's stores (no collector) follow the changelog; the active task writes it.
    if (it == changelog_topic_of_.end() || !env_.collector) return;
    static const headers no_headers;
    env_.collector->send(it->second, id_.partition, key, value, timestamp, no_headers, store_name);
}

state::stored_metadata stream_task::current_stored_metadata() {
    if (!has_metadata_) return {};
    if (!last_stored_topic_ || *last_stored_topic_ != metadata_.topic) {
        auto it = stored_topics_.find(metadata_.topic);
        if (it == stored_topics_.end()) it = stored_topics_.emplace(metadata_.topic).first;
        last_stored_topic_ = &*it;
    }
    std::shared_ptr<const state::raw_bytes> raw;
    if (current_record_.raw_released) {
        // A sink sent the record in this context: the entry keeps no raw bytes (Kafka's).
    } else if (stored_override_) {
        raw = stored_raw_;
    } else if (keep_raw_ && raw_) {
        if (!raw_copy_) {
            auto copy = std::make_shared<state::raw_bytes>();
            if (raw_->key) copy->key = std::string(*raw_->key);
            if (raw_->value) copy->value = std::string(*raw_->value);
            raw_copy_ = std::move(copy);
        }
        raw = raw_copy_;
    }
    return {last_stored_topic_, metadata_.partition, metadata_.offset, std::move(raw)};
}

void stream_task::set_stored_metadata(const state::stored_metadata& m) {
    has_metadata_ = m.topic != nullptr;
    if (has_metadata_) metadata_ = {*m.topic, m.partition, m.offset};
    // The current source record's own metadata (a flush inside processing restoring it) keeps
    // raw_ as the record's; any other is an entry's writer.
    stored_override_ = !(raw_ && has_metadata_ && m.partition == raw_->partition && m.offset == raw_->offset &&
                         metadata_.topic == raw_->topic);
    stored_raw_ = stored_override_ ? m.raw : nullptr;
}

void stream_task::log_change(std::string_view store_name, std::string_view key, std::optional<std::string_view> value,
                             std::int64_t timestamp, const headers& hdrs) {
    auto it = changelog_topic_of_.find(store_name);
    if (it == changelog_topic_of_.end() || !env_.collector) return;  // a standby's (above)
    env_.collector->send(it->second, id_.partition, key, value, timestamp, hdrs, store_name);
}

}  // namespace kstreams::detail

namespace kstreams::detail {

// ---- async processors -------------------------------------------------------------------------

async_host* stream_task::async() { return this; }

boost::asio::any_io_executor stream_task::executor() {
    if (!env_.executor) throw streams_error("task " + id_.to_string() + ": this runner has no executor for async processors");
    return env_.executor;
}

void* stream_task::begin_async() {
    async_records_.emplace_back();
    async_record& r = async_records_.back();
    r.self = std::prev(async_records_.end());
    if (has_metadata_) {
        r.anchored = true;
        r.partition = async_holds_.try_emplace({std::string(metadata_.topic), metadata_.partition}).first;
        ++r.partition->second[metadata_.offset];
        r.metadata = {r.partition->first.first, metadata_.partition, metadata_.offset};
    } else {
        ++async_unanchored_;
    }
    ++async_in_flight_;
    return &r;
}

void stream_task::resume_async(void* token, void (*fn)(void*), void* arg) {
    const auto& r = *static_cast<async_record*>(token);
    struct restore {
        stream_task& t;
        record_metadata metadata;
        bool has;
        record_context rc;
        ~restore() {
            t.metadata_ = metadata;
            t.has_metadata_ = has;
            t.current_record_ = rc;
        }
    } saved{*this, metadata_, has_metadata_, current_record_};
    metadata_ = r.metadata;
    has_metadata_ = r.anchored;
    const auto stores = store_guard();
    const auto guard = global_guard();
    fn(arg);
}

void stream_task::fail_async(void* token, std::exception_ptr e, const node& where) noexcept {
    if (async_error_) return;
    const auto& r = *static_cast<async_record*>(token);
    try {
        std::rethrow_exception(e);
    } catch (const streams_error&) {
        async_error_ = e;
    } catch (const std::exception& ex) {
        const std::string record =
            r.anchored ? "the record at topic " + std::string(r.metadata.topic) + ", partition " +
                             std::to_string(r.metadata.partition) + ", offset " + std::to_string(r.metadata.offset)
                       : std::string("a record forwarded by a punctuation or a cache flush");
        async_error_ = std::make_exception_ptr(streams_error("task " + id_.to_string() + ": exception while processing " +
                                                             record + " (async processor " + where.name() +
                                                             "): " + ex.what()));
    } catch (...) {
        async_error_ = std::make_exception_ptr(streams_error("task " + id_.to_string() + ": unknown exception in async processor " + where.name()));
    }
}

void stream_task::end_async(void* token) noexcept {
    auto& r = *static_cast<async_record*>(token);
    if (r.anchored) {
        auto& offsets = r.partition->second;
        auto it = offsets.find(r.metadata.offset);
        if (it != offsets.end() && --it->second == 0) offsets.erase(it);
    } else {
        --async_unanchored_;
    }
    --async_in_flight_;
    async_records_.erase(r.self);
    if (env_.async_done) {
        try {
            env_.async_done();
        } catch (...) {
        }
    }
}

std::int64_t stream_task::async_held_offset(const std::string& topic, std::int32_t partition) const {
    auto it = async_holds_.find({topic, partition});
    if (it == async_holds_.end() || it->second.empty()) return INT64_MAX;
    return it->second.begin()->first;
}

}  // namespace kstreams::detail
