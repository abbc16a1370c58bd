// The task manager's view of the outside world (DESIGN.md §3): small abstract ports that the Kafka
// loop implements over librdkafka and the test driver implements in memory. No librdkafka types.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <kstreams/detail/task_context.hpp>
#include <kstreams/error.hpp>
#include <kstreams/record.hpp>
#include <kstreams/state/state_store.hpp>

#include "lib/runtime/checkpoint.hpp"

namespace kstreams::detail {

struct topic_partition {
    std::string topic;
    std::int32_t partition = 0;
    auto operator<=>(const topic_partition&) const = default;
};

std::string describe(const topic_partition& tp);

/// Exactly-once: the thread's transaction was aborted or its producer fenced (another instance
/// took its tasks over, the transaction timed out, the group moved on). What the thread's tasks did
/// since the last commit is void: the runtime closes them dirty (stores wiped, restored from their
/// changelogs) and rejoins with a new producer, as Kafka Streams' TaskMigratedException.
class task_migrated_error : public streams_error {
public:
    using streams_error::streams_error;
};

/// An offset to commit for a partition (the partition is the task manager's, not copied).
struct partition_offset {
    const topic_partition* tp = nullptr;
    std::int64_t offset = 0;
    /// The commit's metadata (what processors of stores recovered by recomputation noted); empty
    /// for none. Points into the task manager's storage until the commit returns.
    std::string_view metadata{};
};

/// A record fetched from an input partition. Its bytes belong to the consumer port that fetched
/// it (no copies) until the task manager releases it through that port.
struct fetched_record {
    std::optional<std::string_view> key;
    std::optional<std::string_view> value;
    std::int64_t offset = 0;
    std::int64_t timestamp = 0;
    void* handle = nullptr;  ///< the port's own record, for release() and headers()
};

/// Where input records come from and where their offsets are committed (a group member).
class consumer_port {
public:
    enum class commit_result { ok, group_moved, unavailable };

    virtual ~consumer_port() = default;
    static constexpr std::int64_t no_offset = -1;       ///< nothing committed: the reset policy applies
    static constexpr std::int64_t unknown_offset = -2;  ///< the lookup failed: the consumer finds it itself

    /// The committed offset (next to read) of each partition, or no_offset / unknown_offset.
    virtual std::vector<std::int64_t> committed(const std::vector<topic_partition>& parts) = 0;
    /// The metadata committed with `tp`'s offset, as the last committed() call found it (nullopt:
    /// none, or not looked up).
    virtual std::optional<std::string> committed_metadata(const topic_partition& tp) {
        (void)tp;
        return std::nullopt;
    }
    /// Starts fetching `parts`, each from its committed offset (as committed() returned them):
    /// where its source's reset policy says for no_offset.
    virtual void assign(const std::vector<topic_partition>& parts, const std::vector<std::int64_t>& committed) = 0;
    /// Stops fetching everything (a revocation).
    virtual void unassign() = 0;
    /// Fetches an assigned partition again from `offset` (a committed offset as committed()
    /// returns it), dropping what was fetched past it and not handed out yet.
    virtual void seek(const topic_partition& tp, std::int64_t offset) = 0;
    virtual void pause(const topic_partition& tp) = 0;
    virtual void resume(const topic_partition& tp) = 0;
    /// Appends up to `max` records of `tp` to `out` without waiting; returns how many.
    virtual std::size_t fetch(const topic_partition& tp, std::size_t max, std::vector<fetched_record>& out) = 0;
    /// Gives a fetched record back once processed or skipped.
    virtual void release(const fetched_record& r) noexcept = 0;
    /// The record's headers (filling `scratch` if they must be decoded).
    virtual const headers* headers_of(const fetched_record& r, headers& scratch) = 0;
    /// Whether `tp` has records to fetch right now (a hint: fetch() may still return none).
    virtual bool available(const topic_partition& tp) {
        (void)tp;
        return true;
    }
    /// Records known to be on the broker past `received_up_to` (-1: nothing received yet);
    /// nullopt when not known yet.
    virtual std::optional<std::int64_t> lag(const topic_partition& tp, std::int64_t received_up_to) = 0;
    /// Commits the next offsets to read. `group_moved`: the group rebalanced meanwhile, nothing
    /// committed (the records will be processed again). `unavailable`: the group coordinator did
    /// not answer (the next commit tries again; the port decides when to give up). Other failures throw streams_error.
    [[nodiscard]] virtual commit_result commit(std::span<const partition_offset> offsets) = 0;
    /// Exactly-once: `offsets` were committed through the producer's transaction (the port may
    /// purge repartition topics up to them, as after commit()).
    virtual void committed_in_transaction(std::span<const partition_offset> offsets) { (void)offsets; }
};

/// Where tasks' records go (the thread's producer).
class producer_port {
public:
    virtual ~producer_port() = default;
    virtual record_collector& collector() = 0;
    /// Serves delivery reports without waiting.
    virtual void poll() {}
    /// Waits until everything sent is acknowledged; throws streams_error for a failed send under
    /// the fail policy.
    virtual void flush() = 0;
    /// Last acknowledged offset of each changelog partition written so far.
    virtual const checkpoint_offsets& changelog_offsets() = 0;
    /// A collector of a task's own that may send while other tasks send from other threads, with
    /// its counters in `metrics` (the task's); null when collector() is safe to share.
    virtual std::unique_ptr<record_collector> task_collector(kstreams::metrics& metrics) {
        (void)metrics;
        return nullptr;
    }
    /// Exactly-once (KIP-447): commits the open transaction (begun at the first send, or here)
    /// with `offsets` as the consumer group's, so the records sent since the last commit and the
    /// input offsets become visible together or not at all. Throws task_migrated_error when the
    /// transaction could not commit (it was aborted, or the producer fenced).
    virtual void commit_transaction(std::span<const partition_offset> offsets) {
        (void)offsets;
        throw streams_error("this runner has no transactions");
    }
    /// Exactly-once: aborts the open transaction, if any (tasks closed dirty). Throws
    /// task_migrated_error when the producer cannot go on (fenced).
    virtual void abort_transaction() {}
};

/// The rest of each record of a restore batch (by its index in the batch): read only when a store
/// asks (the suppress buffer's version header), so that restoring stays cheap for the others.
class restore_batch_details {
public:
    virtual std::int64_t offset_of(std::size_t i) const = 0;
    /// Its headers, decoded into `scratch` if need be.
    virtual const headers& headers_of(std::size_t i, headers& scratch) const = 0;

protected:
    ~restore_batch_details() = default;
};

/// Receives what a restore_reader read.
class restore_sink {
public:
    virtual ~restore_sink() = default;
    /// Records of one changelog partition in offset order; `last_offset` is the last one's offset.
    virtual void on_records(const topic_partition& tp, std::span<const restore_record> records,
                            std::int64_t last_offset, const restore_batch_details* details = nullptr) = 0;
    /// The partition has nothing more to read right now (its end).
    virtual void on_end(const topic_partition& tp) = 0;
};

/// Reads changelog partitions to restore stores (a consumer outside the group).
class restore_reader {
public:
    virtual ~restore_reader() = default;
    /// The partition's first and end (exclusive) offsets; nullopt when not known yet (ask again).
    virtual std::optional<std::pair<std::int64_t, std::int64_t>> offsets(const topic_partition& tp) = 0;
    /// Starts reading `tp` at `from`.
    virtual void add(const topic_partition& tp, std::int64_t from) = 0;
    virtual void remove(const topic_partition& tp) = 0;
    /// Delivers up to about `max` records without blocking for long; returns how many.
    virtual std::size_t read(std::size_t max, restore_sink& sink) = 0;
};

}  // namespace kstreams::detail
