#include "lib/runtime/query_registry.hpp"

#include <algorithm>
#include <tuple>

#include <kstreams/state/queryable_store.hpp>
#include <kstreams/state/state_query.hpp>

#include "lib/runtime/stream_task.hpp"
#include "lib/state/record_cache.hpp"

namespace kstreams::detail {

namespace {

std::string migrated(const std::string& name) {
    return "State store " + name +
           " is not available anymore and may have been migrated to another instance; please re-discover its "
           "location from the state metadata";
}

class task_store_instance final : public queryable_instance {
public:
    task_store_instance(std::shared_ptr<query_slot> slot, std::string name, bool stale)
        : slot_(std::move(slot)), name_(std::move(name)), stale_(stale) {}

    kstreams::task_id task() const override { return slot_->id; }

    void read(const std::function<void(state_store&)>& read) const override {
        std::lock_guard lock(*slot_->lock);
        state_store* store = slot_->task ? slot_->task->find_store(name_) : nullptr;
        if (!store || !store->is_open() || (!stale_ && slot_->phase != query_slot::phase::running))
            throw invalid_state_store_error(migrated(name_));
        const state::query_read_scope marked;
        read(*store);
    }

    std::map<std::string, std::map<std::int32_t, std::int64_t>> position() const override {
        std::lock_guard lock(*slot_->lock);
        return slot_->task ? slot_->task->position() : std::map<std::string, std::map<std::int32_t, std::int64_t>>{};
    }

private:
    std::shared_ptr<query_slot> slot_;
    std::string name_;
    bool stale_;
};

/// By task, an active task's slot before a standby's of the same task (which is read only when
/// no active one is listed).
void sort_active_first(std::vector<std::shared_ptr<query_slot>>& slots) {
    std::sort(slots.begin(), slots.end(), [](const auto& a, const auto& b) {
        return std::tie(a->id, a->standby) < std::tie(b->id, b->standby);
    });
}

}  // namespace

void query_registry::add(const std::shared_ptr<query_slot>& slot) {
    std::lock_guard lock(mutex_);
    slots_.push_back(slot);
}

void query_registry::remove(const query_slot* slot) {
    std::lock_guard lock(mutex_);
    slots_.erase(std::remove_if(slots_.begin(), slots_.end(), [&](const auto& s) { return s.get() == slot; }),
                 slots_.end());
}

std::vector<std::shared_ptr<queryable_instance>> query_registry::instances(
    const std::string& name, bool stale, std::optional<std::int32_t> partition) const {
    const streams_state s = app_state.load();
    if (s == streams_state::created)
        throw streams_not_started_error("KafkaStreams has not been started, you can retry after calling start()");
    if (s != streams_state::running && s != streams_state::rebalancing)
        throw invalid_state_store_error(std::string("KafkaStreams is not running. State is ") + to_string(s) + ".");
    std::vector<std::shared_ptr<query_slot>> slots;
    {
        std::lock_guard lock(mutex_);
        slots = slots_;
    }
    sort_active_first(slots);
    std::vector<std::shared_ptr<queryable_instance>> out;
    for (const auto& slot : slots) {
        if (partition && slot->id.partition != *partition) continue;
        std::lock_guard lock(*slot->lock);
        if (!slot->task || !slot->task->find_store(name)) continue;
        if (!stale && slot->phase == query_slot::phase::standby) continue;  // not without stale stores
        if (!stale && slot->phase != query_slot::phase::running)
            throw invalid_state_store_error(
                "Cannot get state store " + name + " because its task " + slot->id.to_string() + " is " +
                (slot->phase == query_slot::phase::restoring ? "restoring" : "suspended (the group rebalances)") +
                ", not RUNNING; enable stale stores to read it meanwhile");
        // A task moving between the stream threads of this instance may be listed twice for a
        // moment (suspended on one, restoring on the other): the first one listed is read.
        if (std::any_of(out.begin(), out.end(), [&](const auto& i) { return i->task() == slot->id; })) continue;
        out.push_back(std::make_shared<task_store_instance>(slot, name, stale));
    }
    if (out.empty()) {
        if (partition)
            throw invalid_state_store_error("The specified partition " + std::to_string(*partition) + " for store " +
                                            name + " does not exist.");
        throw invalid_state_store_error("The state store, " + name + ", may have migrated to another instance.");
    }
    return out;
}

std::vector<partition_query> query_registry::partition_queries(
    const std::string& name, const std::optional<std::vector<std::int32_t>>& partitions, bool require_active) const {
    std::vector<std::shared_ptr<query_slot>> slots;
    {
        std::lock_guard lock(mutex_);
        slots = slots_;
    }
    sort_active_first(slots);
    std::vector<partition_query> out;
    auto listed = [&](std::int32_t p) {
        return std::any_of(out.begin(), out.end(), [&](const auto& q) { return q.partition == p; });
    };
    for (const auto& slot : slots) {
        const std::int32_t p = slot->id.partition;
        if (partitions && std::find(partitions->begin(), partitions->end(), p) == partitions->end()) continue;
        std::lock_guard lock(*slot->lock);
        if (!slot->task || !slot->task->find_store(name) || listed(p)) continue;
        partition_query q;
        q.partition = p;
        if (require_active && slot->phase == query_slot::phase::standby) {
            q.failure = failure_reason::not_active;
            q.message = "Query requires a running active task, but partition was in state RUNNING and was not active.";
        } else if (require_active && slot->phase != query_slot::phase::running) {
            q.failure = failure_reason::not_active;
            q.message = std::string("Query requires a running active task, but partition was in state ") +
                        (slot->phase == query_slot::phase::restoring ? "RESTORING" : "SUSPENDED") + " and was active.";
        } else {
            q.instance = std::make_shared<task_store_instance>(slot, name, !require_active);
        }
        out.push_back(std::move(q));
    }
    if (partitions)
        for (const std::int32_t p : *partitions)
            if (!listed(p)) {
                partition_query q;
                q.partition = p;
                q.failure = failure_reason::not_present;
                q.message = "The requested partition was not present at the time of the query.";
                out.push_back(std::move(q));
            }
    return out;
}

}  // namespace kstreams::detail

namespace kstreams {

const char* to_string(failure_reason r) noexcept {
    switch (r) {
        case failure_reason::unknown_query_type: return "UNKNOWN_QUERY_TYPE";
        case failure_reason::not_active: return "NOT_ACTIVE";
        case failure_reason::not_up_to_bound: return "NOT_UP_TO_BOUND";
        case failure_reason::not_present: return "NOT_PRESENT";
        case failure_reason::does_not_exist: return "DOES_NOT_EXIST";
        case failure_reason::store_exception: return "STORE_EXCEPTION";
    }
    return "?";
}

}  // namespace kstreams
