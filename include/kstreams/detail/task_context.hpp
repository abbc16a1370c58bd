// What a processor node needs from the task that runs it. Implemented by the runtime (lib/);
// public only because the typed processor templates in user code call it.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <typeinfo>

#include <kstreams/metric_samples.hpp>
#include <kstreams/metrics.hpp>
#include <kstreams/punctuation.hpp>
#include <kstreams/record.hpp>
#include <kstreams/task_id.hpp>

namespace kstreams {
class state_store;
}

namespace kstreams::detail {

class node;
struct raw_record;
class async_host;

/// Serialized records leave a task through this: to a Kafka producer, or to the test driver.
class record_collector {
public:
    virtual ~record_collector() = default;
    /// key/value: nullopt is Kafka's null. partition: nullopt lets the collector pick (murmur2).
    virtual void send(std::string_view topic, std::optional<std::int32_t> partition,
                      std::optional<std::string_view> key, std::optional<std::string_view> value,
                      std::int64_t timestamp, const headers& hdrs, std::string_view sink_node) = 0;
    /// Partition count of a topic, for custom partitioners; throws streams_error if unknown.
    virtual std::int32_t partition_count(std::string_view topic) = 0;
};

/// Kafka's record-e2e-latency at one node (INFO level), which the node records for each record it
/// is given. A node asks for it once, at init (task_context::e2e_latency_at): per record it is one
/// call, with no lookup by name.
class e2e_latency_sensor {
public:
    virtual ~e2e_latency_sensor() = default;
    /// A record of this timestamp reached the node (now: the task's wall clock of the turn).
    virtual void record(std::int64_t timestamp) = 0;
};

/// The application's settings as processors read them (task_context::app_configs).
using app_config_map = std::map<std::string, std::string, std::less<>>;

/// One task_context::task_slot.
struct task_slot_entry {
    const std::type_info* type = nullptr;
    std::shared_ptr<void> value;
};

class task_context {
public:
    virtual ~task_context() = default;
    virtual std::string_view application_id() const = 0;
    virtual task_id id() const = 0;
    /// Metadata of the source record being processed; nullptr inside a punctuation.
    virtual const record_metadata* current_metadata() const = 0;
    virtual std::int64_t stream_time() const = 0;
    virtual std::int64_t wall_clock_time() const = 0;
    /// A setting of the application's configuration (Kafka's ProcessorContext.appConfigs()), or
    /// nullopt when the application did not set it. Read at init, not per record.
    virtual std::optional<std::string_view> app_config(std::string_view key) const {
        (void)key;
        return std::nullopt;
    }
    /// Every setting of the application (Kafka's ProcessorContext.appConfigs()); empty by default.
    virtual const app_config_map& app_configs() const;
    /// The task's directory (Kafka's ProcessorContext.stateDir()); empty where there is none.
    virtual std::string state_directory() const { return {}; }
    /// metrics.recording.level: user sensors above it record nothing.
    virtual metrics_recording_level recording_level() const { return metrics_recording_level::info; }
    /// State the processors of one task share (e.g. both sides of a stream-stream join): made
    /// (value-initialized) on the first ask for `key`, gone with the task. Every asker of a key
    /// must ask for the same T; another T is a topology_error.
    template <class T>
    T& task_slot(std::string_view key) {
        task_slot_entry& e = slot(key);
        if (!e.value) {
            e.value = std::make_shared<T>();
            e.type = &typeid(T);
        } else if (*e.type != typeid(T)) {
            slot_type_mismatch(key);
        }
        return *static_cast<T*>(e.value.get());
    }
    virtual cancellable schedule(node& owner, std::chrono::milliseconds interval,
                                 punctuation_type type, punctuator callback) = 0;
    /// The store connected to `asker` under this name; throws topology_error naming both if the
    /// store does not exist or is not connected to that processor.
    virtual state_store& store(std::string_view name, const node& asker) = 0;
    virtual void request_commit() = 0;
    virtual record_collector& collector() = 0;
    virtual kstreams::metrics& metrics() = 0;
    /// Records a dropped record: bumps the total and the reason's counter, logs once per reason.
    virtual void record_dropped(std::string_view reason_metric, const node& where) = 0;
    /// A source could not deserialize a record. Per the configured handler this either throws a
    /// streams_error naming topic, partition, offset and node, or counts the record as skipped.
    virtual void deserialization_failed(const raw_record& raw, bool in_key, std::string_view what,
                                        const node& where) = 0;

    /// A node threw while processing a record forwarded to it (`where`); called inside the catch
    /// block, so std::current_exception() is the error. Per the processing exception handler
    /// (KIP-1033) it returns (the record is dropped at that node; the forwarding node's other
    /// children still get it) or throws. The default rethrows.
    virtual void processing_failed(const node& where) {
        (void)where;
        throw;
    }

    /// A sink could not serialize the record it writes to `topic` (called inside the catch block,
    /// once per partition it was to be written to). Per the production exception handler (Kafka's
    /// handleSerializationError) it returns (the record is dropped there and counted) or throws
    /// an error that the node which forwarded to the sink handles as its processing error, as
    /// Kafka's record collector does. The default rethrows.
    virtual void serialization_failed(const node& sink, std::string_view topic, std::optional<std::int32_t> partition,
                                      std::int64_t timestamp) {
        (void)sink, (void)topic, (void)partition, (void)timestamp;
        throw;
    }

    /// The record-e2e-latency sensor of sink `n`, owned by the task; nullptr where none is kept.
    virtual e2e_latency_sensor* e2e_latency_at(const node& n) {
        (void)n;
        return nullptr;
    }

    /// What async processors (kstreams/async.hpp) run on; nullptr where they cannot run.
    virtual async_host* async() { return nullptr; }

    /// The record being processed; set around each forward (a plain member, not a virtual call,
    /// because it changes once per operator and record).
    const record_context& current_record() const { return current_record_; }

protected:
    friend class node;
    record_context current_record_{};

    /// The task's entry for `key`, empty on the first ask.
    virtual task_slot_entry& slot(std::string_view key) = 0;
    /// Throws the topology_error of a slot asked for as two types.
    [[noreturn]] static void slot_type_mismatch(std::string_view key);
};

}  // namespace kstreams::detail
