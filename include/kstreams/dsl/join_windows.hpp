// Options of a windowed stream-stream join, as Kafka Streams' JoinWindows and StreamJoined.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>

#include <kstreams/detail/dsl_store_choice.hpp>
#include <kstreams/dsl/serde_ref.hpp>

namespace kstreams {

class window_bytes_store_supplier;
enum class recovery;  // <kstreams/detail/recompute_store.hpp>; value-initialized: recovery::changelog

namespace dsl_detail {
enum class join_kind { inner, left, outer };
}

/// Which records of two streams join: a record at t matches the other stream's records with the
/// same key and a timestamp in [t - before, t + after] (both ends inclusive; for a record of the
/// other stream the interval is mirrored). Records are kept for before + after + grace, so a
/// record arriving up to `grace` after its window closed still finds its partners; a left/outer
/// join emits a record without partner once stream time passes t + after + grace.
class join_windows {
public:
    /// |t1 - t2| <= d, no grace period.
    static join_windows of_time_difference_with_no_grace(std::chrono::milliseconds d) {
        return of_time_difference_and_grace(d, std::chrono::milliseconds(0));
    }
    /// |t1 - t2| <= d; late records are accepted for `grace` after a window closes.
    static join_windows of_time_difference_and_grace(std::chrono::milliseconds d, std::chrono::milliseconds grace) {
        if (d.count() < 0) throw std::invalid_argument("join_windows: the time difference must not be negative");
        if (grace.count() < 0) throw std::invalid_argument("join_windows: the grace period must not be negative");
        return join_windows(d.count(), d.count(), grace.count());
    }
    /// Same `after`, `before` changed: the other record may be up to d older.
    join_windows before(std::chrono::milliseconds d) const {
        if (d.count() + after_ < 0) throw std::invalid_argument("join_windows: before + after must not be negative");
        return join_windows(d.count(), after_, grace_);
    }
    /// Same `before`, `after` changed: the other record may be up to d newer.
    join_windows after(std::chrono::milliseconds d) const {
        if (before_ + d.count() < 0) throw std::invalid_argument("join_windows: before + after must not be negative");
        return join_windows(before_, d.count(), grace_);
    }

    std::int64_t before_ms() const { return before_; }
    std::int64_t after_ms() const { return after_; }
    std::int64_t grace_ms() const { return grace_; }
    /// before + after: the window size of the join stores.
    std::int64_t size_ms() const { return before_ + after_; }

private:
    join_windows(std::int64_t before, std::int64_t after, std::int64_t grace) : before_(before), after_(after), grace_(grace) {}
    std::int64_t before_, after_, grace_;
};

/// Serdes, store names and a name for a stream-stream join (Kafka's StreamJoined). KS serializes
/// the key, VS this stream's values, OS the other stream's values; no_serde = inherit from the
/// joined streams (or serde<T>).
template <class KS = no_serde, class VS = no_serde, class OS = no_serde>
struct stream_joined {
    KS key_serde{};
    VS value_serde{};
    OS other_value_serde{};
    std::string name;        ///< names the join's processors: <name>-this-join, <name>-merge, ...
    std::string store_name;  ///< names its stores: <store_name>-this-join-store, ...
    bool logging = true;
    std::map<std::string, std::string> log_config{};
    /// RocksDB or memory; unset = the application's default.dsl.store (RocksDB unless configured
    /// in_memory), as Kafka's StreamJoined.
    std::optional<dsl_store_type> store_type{};
    /// The window stores of this side's and the other side's records (Kafka's
    /// withThisStoreSupplier / withOtherStoreSupplier); null = made by the join. A supplier must
    /// retain duplicates, have the windows' size (before + after) and a retention of size + grace,
    /// and the two must have different names, else the join throws topology_error. Its name names
    /// the store; this side's also names the outer join's shared store and picks its kind (in
    /// memory for an in-memory supplier, RocksDB for a RocksDB one).
    std::shared_ptr<const window_bytes_store_supplier> this_store_supplier{};
    std::shared_ptr<const window_bytes_store_supplier> other_store_supplier{};
    /// How the join's buffers survive a failure (with_recovery); value-initialized: changelog.
    kstreams::recovery recovery_mode{};

    static stream_joined as(std::string store) { stream_joined s; s.store_name = std::move(store); return s; }
    template <class S>
    stream_joined<S, VS, OS> with_key_serde(S s) const {
        return {std::move(s), value_serde, other_value_serde, name, store_name, logging, log_config, store_type,
                this_store_supplier, other_store_supplier, recovery_mode};
    }
    template <class S>
    stream_joined<KS, S, OS> with_value_serde(S s) const {
        return {key_serde, std::move(s), other_value_serde, name, store_name, logging, log_config, store_type,
                this_store_supplier, other_store_supplier, recovery_mode};
    }
    template <class S>
    stream_joined<KS, VS, S> with_other_value_serde(S s) const {
        return {key_serde, value_serde, std::move(s), name, store_name, logging, log_config, store_type,
                this_store_supplier, other_store_supplier, recovery_mode};
    }
    stream_joined with_this_store_supplier(std::shared_ptr<const window_bytes_store_supplier> s) const {
        auto c = *this;
        c.this_store_supplier = std::move(s);
        return c;
    }
    stream_joined with_other_store_supplier(std::shared_ptr<const window_bytes_store_supplier> s) const {
        auto c = *this;
        c.other_store_supplier = std::move(s);
        return c;
    }
    stream_joined with_name(std::string n) const { auto c = *this; c.name = std::move(n); return c; }
    stream_joined with_store_name(std::string n) const { auto c = *this; c.store_name = std::move(n); return c; }
    stream_joined with_logging_enabled(std::map<std::string, std::string> config = {}) const {
        auto c = *this;
        c.logging = true;
        c.log_config = std::move(config);
        return c;
    }
    stream_joined with_logging_disabled() const { auto c = *this; c.logging = false; return c; }
    stream_joined with_persistent_stores() const { return with_store_type(dsl_store_type::rocks_db); }
    stream_joined with_in_memory_stores() const { return with_store_type(dsl_store_type::in_memory); }
    /// Kafka's StreamJoined.withDslStoreSuppliers(built-in RocksDB / in-memory suppliers).
    stream_joined with_store_type(dsl_store_type t) const { auto c = *this; c.store_type = t; return c; }
    /// How the join's buffers survive a failure: recovery::changelog (the default, Kafka Streams'
    /// only way) or recovery::recompute (not in Kafka Streams): both buffers, and a left/outer
    /// join's store of records waiting for a partner, are kept in memory only, with no changelog,
    /// whatever store type and logging are asked for; input offsets are committed no further than
    /// the earliest record a buffer still needs, and a restart processes them again (see the
    /// README). A store supplier making a persistent store is refused when the task starts.
    stream_joined with_recovery(kstreams::recovery r) const { auto c = *this; c.recovery_mode = r; return c; }
};
template <class KS, class VS, class OS>
stream_joined<KS, VS, OS> stream_joined_with(KS ks, VS vs, OS os) { return {std::move(ks), std::move(vs), std::move(os)}; }

}  // namespace kstreams
