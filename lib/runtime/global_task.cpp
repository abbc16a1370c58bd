#include "lib/runtime/global_task.hpp"

#include <algorithm>

#include <kstreams/error.hpp>

#include "lib/core/log.hpp"
#include "lib/state/global_write_scope.hpp"

namespace kstreams::detail {

namespace {
std::string at(const raw_record& raw) {
    return "topic " + std::string(raw.topic) + ", partition " + std::to_string(raw.partition) + ", offset " +
           std::to_string(raw.offset);
}
}  // namespace

global_task::global_task(const topology_model& model, const topology_groups& groups, task_environment& env)
    : model_(model), groups_(groups), env_(env) {}

global_task::~global_task() {
    try {
        close();
    } catch (const std::exception& e) {
        KSTREAMS_LOG(error, std::string("global task: error while closing: ") + e.what());
    }
}

void global_task::init() {
    const state::global_update_scope update;  // update processors may write in init
    resources_ = env_.stores;
    resources_.metrics = env_.metrics;
    resources_.time_store_operations = env_.recording_level != metrics_recording_level::info;
    // No record cache: the global stores are read by every stream thread while the global task
    // writes them, and nothing is downstream of an update processor to coalesce for.
    resources_.cache = nullptr;
    for (std::size_t s : groups_.global_stores) {
        const auto& builder = *model_.stores[s].builder;
        auto [it, inserted] = stores_.emplace(builder.name(), detail::build_store(builder, env_.default_dsl_store));
        if (inserted) store_order_.push_back(it->second.get());
        // The DSL marks a global table's store as restored from its topic (source_topic_changelog);
        // any other global store came from add_global_store.
        if (inserted && model_.stores[s].source_topic_changelog.empty()) reprocessed_.push_back(it->second.get());
    }
    if (has_persistent_stores() && !env_.state_dir.empty()) std::filesystem::create_directories(task_directory());
    for (state_store* store : store_order_) store->init(*this);

    std::map<std::size_t, node*> by_index;
    for (const auto& sub : groups_.subtopologies) {
        if (!sub.global) continue;
        for (std::size_t idx : sub.nodes) {
            const node_def& def = model_.nodes[idx];
            std::unique_ptr<node> n = def.make();
            if (def.kind == node_kind::source) {
                auto* src = static_cast<source_node*>(n.get());
                for (const auto& t : def.topics) {
                    sources_.emplace(t, std::make_pair(src, &def));
                    topics_.push_back(t);
                }
            }
            by_index.emplace(idx, n.get());
            node_def_index_.emplace(n.get(), idx);
            nodes_.push_back(std::move(n));
        }
    }
    for (const auto& [idx, n] : by_index)
        for (std::size_t child : groups_.children[idx]) n->add_child(by_index.at(child));
    // Each global store's topic: the source topic of the sub-topology its update processor is in.
    for (const auto& sub : groups_.subtopologies) {
        if (!sub.global) continue;
        std::string topic;
        for (std::size_t idx : sub.nodes)
            if (model_.nodes[idx].kind == node_kind::source && !model_.nodes[idx].topics.empty())
                topic = model_.nodes[idx].topics.front();
        for (std::size_t idx : sub.nodes)
            for (const auto& name : groups_.node_stores[idx])
                if (state_store* st = find_store(name))
                    if (std::none_of(store_topics_.begin(), store_topics_.end(), [&](const auto& e) { return e.first == st; }))
                        store_topics_.emplace_back(st, topic);
    }
    for (auto& n : nodes_) n->init(*this);
    initialized_ = true;
}

void global_task::process(const raw_record& raw) {
    auto it = sources_.find(raw.topic);
    if (it == sources_.end()) throw streams_error("global task: no global store reads topic " + std::string(raw.topic));
    auto [src, def] = it->second;
    // As Kafka's GlobalStateUpdateTask: a global store's update takes the record's own timestamp;
    // no timestamp extractor is asked (not the source's, not the default), and a negative
    // timestamp neither skips nor fails the record.
    const std::int64_t ts = raw.timestamp;
    metadata_ = {raw.topic, raw.partition, raw.offset};
    has_metadata_ = true;
    current_record_ = {ts, nullptr};
    const state::global_update_scope update;  // the update processor writes its global stores
    try {
        src->process_raw(raw, ts);
    } catch (const streams_error&) {
        has_metadata_ = false;
        throw;
    } catch (const std::exception& e) {
        has_metadata_ = false;
        throw streams_error("global task: exception while processing the record at " + at(raw) + " (source " +
                            src->name() + "): " + e.what());
    }
    has_metadata_ = false;
}

void global_task::flush() {
    const state::global_update_scope update;
    for (state_store* store : store_order_) store->flush_cache();
    for (state_store* store : store_order_) store->flush();
}

void global_task::close() {
    if (!initialized_) return;
    initialized_ = false;
    const state::global_update_scope update;
    for (auto& n : nodes_) n->close();
    for (state_store* store : store_order_) store->flush();
    for (state_store* store : store_order_) store->close();
}

void global_task::restore(state_store& store, std::span<const restore_record> batch) {
    auto it = restorers_.find(store.name());
    if (it == restorers_.end())
        throw streams_error("global store " + store.name() + " registered no restore callback at init");
    const state::global_update_scope update;
    it->second(batch);
}

bool global_task::reprocesses_on_restore(const state_store& store) const {
    return std::find(reprocessed_.begin(), reprocessed_.end(), &store) != reprocessed_.end();
}

state_store* global_task::find_store(std::string_view name) {
    auto it = stores_.find(name);
    return it == stores_.end() ? nullptr : it->second.get();
}

bool global_task::has_persistent_stores() const {
    for (const state_store* s : store_order_)
        if (s->persistent()) return true;
    return false;
}

cancellable global_task::schedule(node& owner, std::chrono::milliseconds, punctuation_type, punctuator) {
    // As Kafka's global processor context: a global store's update processor cannot punctuate.
    throw topology_error("processor " + owner.name() + " updates a global store and cannot schedule punctuations");
}

state_store& global_task::store(std::string_view name, const node& asker) {
    // An update processor may read any global store (Kafka's global processor context).
    if (state_store* s = find_store(name)) return *s;
    throw topology_error("processor " + asker.name() + " of a global store asked for store " + std::string(name) +
                         ", which is not a global store");
}

record_collector& global_task::collector() {
    throw streams_error("global task: a global store's update processor cannot send records");
}

void global_task::record_dropped(std::string_view reason_metric, const node& where) {
    ++metrics().counter(metric::dropped_records);
    ++metrics().counter(reason_metric);
    std::string key = std::string(reason_metric) + "@" + where.name();
    if (!warned_[key]) {
        warned_[key] = true;
        const std::string place = has_metadata_ ? " at topic " + std::string(metadata_.topic) + ", partition " +
                                                      std::to_string(metadata_.partition) + ", offset " +
                                                      std::to_string(metadata_.offset)
                                                : std::string{};
        KSTREAMS_LOG(warn, "global task, processor " + where.name() + ": dropping a record (" +
                               std::string(reason_metric) + ")" + place + "; further drops of this kind are only counted");
    }
}

void global_task::deserialization_failed(const raw_record& raw, bool in_key, std::string_view what, const node& where) {
    const std::string msg = "global task: could not deserialize the " + std::string(in_key ? "key" : "value") +
                            " of the record at " + at(raw) + " (source " + where.name() + "): " + std::string(what);
    if (env_.on_deserialization_error == deserialization_policy::fail) throw streams_error(msg);
    ++metrics().counter(metric::skipped_deserialization);
    KSTREAMS_LOG(warn, msg + "; skipped (log-and-continue)");
}

std::filesystem::path global_task::task_directory() const {
    if (env_.state_dir.empty()) return {};
    return env_.state_dir / "global";
}

void global_task::register_store(state_store& store, restore_callback restore) {
    // No changelog: the Kafka runtime's global thread restores the store from its source topic
    // through this callback (the test driver has nothing to restore).
    restorers_[store.name()] = std::move(restore);
}

void global_task::log_change(std::string_view store_name, std::string_view, std::optional<std::string_view>,
                             std::int64_t) {
    // Logging is refused for global stores when the topology is built; a store that logs anyway
    // would write to a changelog nobody reads, so say so.
    throw streams_error("global store " + std::string(store_name) + " tried to write a changelog record");
}

}  // namespace kstreams::detail
