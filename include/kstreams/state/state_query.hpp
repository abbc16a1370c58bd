// Interactive queries v2 (Kafka's IQv2, KIP-796): kafka_streams::query() runs a typed query on the
// local partitions of a store and answers per partition, with a failure reason instead of an
// exception where a partition cannot answer.
//
//   auto result = app.query(in_store("counts").with_query(key_query<std::string, std::int64_t>::with_key("alice")));
//   for (const auto& [partition, r] : result.partition_results())
//       if (r.is_success() && r.result()) std::cout << *r.result();
//
// A partition's position is the offset of the last record its task processed of each input
// topic-partition (Kafka keeps a Position per store: the records that wrote to it; the task's is at
// least as far).
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <kstreams/state/queryable_store.hpp>
#include <kstreams/state/versioned_key_value_store.hpp>
#include <kstreams/streams.hpp>

namespace kstreams {

/// Why a partition could not answer (Kafka's FailureReason).
enum class failure_reason {
    unknown_query_type,  ///< the store does not know how to run the query (or it is a global store)
    not_active,          ///< require_active() and the partition's task is not a running active task
    not_up_to_bound,     ///< the partition's position is behind the request's position bound
    not_present,         ///< the partition asked for is not hosted by this instance (now)
    does_not_exist,      ///< (the store has no such partition: reported as not_present)
    store_exception,     ///< the store threw while running the query; the message says what
};
const char* to_string(failure_reason r) noexcept;

/// Input topic -> partition -> offset (Kafka's Position).
using query_position = std::map<std::string, std::map<std::int32_t, std::int64_t>>;

/// One partition's answer (Kafka's QueryResult).
template <class R>
class query_result {
public:
    static query_result success(R r, query_position p) {
        query_result q;
        q.result_ = std::move(r);
        q.position_ = std::move(p);
        return q;
    }
    static query_result failure(failure_reason reason, std::string message) {
        query_result q;
        q.failure_ = reason;
        q.message_ = std::move(message);
        return q;
    }
    bool is_success() const { return !failure_.has_value(); }
    bool is_failure() const { return failure_.has_value(); }
    /// The result; throws std::logic_error on a failure (Kafka's IllegalArgumentException).
    const R& result() const& {
        if (failure_) throw std::logic_error("Cannot get result for failed query. Failure is " + std::string(to_string(*failure_)) + ": " + message_);
        return result_;
    }
    /// Of a temporary: moved out (so that `for (auto& x : result_of_a_call().result())` is safe).
    R result() && {
        (void)static_cast<const query_result&>(*this).result();
        return std::move(result_);
    }
    /// Throws std::logic_error on a success.
    failure_reason get_failure_reason() const {
        if (!failure_) throw std::logic_error("Cannot get failure reason of a successful query result");
        return *failure_;
    }
    const std::string& failure_message() const { return message_; }
    const query_position& position() const { return position_; }

private:
    R result_{};
    std::optional<failure_reason> failure_;
    std::string message_;
    query_position position_;
};

template <class R>
struct is_optional_result : std::false_type {};
template <class T>
struct is_optional_result<std::optional<T>> : std::true_type {};

/// Every partition's answer (Kafka's StateQueryResult).
template <class R>
class state_query_result {
public:
    const std::map<std::int32_t, query_result<R>>& partition_results() const& { return partitions_; }
    /// Of a temporary (`for (auto& [p, r] : app.query(q).partition_results())`): moved out, so that
    /// the loop does not read a destroyed result.
    std::map<std::int32_t, query_result<R>> partition_results() && { return std::move(partitions_); }
    /// Set (to an unknown_query_type failure) for a global store, as Kafka's.
    const std::optional<query_result<R>>& global_result() const { return global_; }
    /// The one partition that found something (Kafka's getOnlyPartitionResult, which skips null
    /// results: failures, and for a key query nullopt), for a key query: throws std::logic_error
    /// when several did, nullopt when none did. A copy, so that `app.query(q).only_partition_result()`
    /// is safe.
    std::optional<query_result<R>> only_partition_result() const {
        const query_result<R>* found = nullptr;
        for (const auto& [p, r] : partitions_) {
            if (!r.is_success()) continue;
            if constexpr (is_optional_result<R>::value)
                if (!r.result()) continue;
            if (found) throw std::logic_error("The query did not return exactly one partition result: several partitions found one");
            found = &r;
        }
        return found ? std::optional<query_result<R>>(*found) : std::nullopt;
    }
    /// The successful partitions' positions merged (Kafka's getPosition).
    query_position position() const {
        query_position out;
        for (const auto& [p, r] : partitions_)
            if (r.is_success())
                for (const auto& [topic, offsets] : r.position())
                    for (const auto& [partition, offset] : offsets) {
                        auto& o = out[topic][partition];
                        o = std::max(o, offset);
                    }
        return out;
    }
    void add_result(std::int32_t partition, query_result<R> r) { partitions_.insert_or_assign(partition, std::move(r)); }
    void set_global_result(query_result<R> r) { global_ = std::move(r); }

private:
    std::map<std::int32_t, query_result<R>> partitions_;
    std::optional<query_result<R>> global_;
};

/// A query (Kafka's Query<R>): runs on one partition's store.
template <class R>
class state_query {
public:
    using result_type = R;
    virtual ~state_query() = default;
    /// Runs on `store`; false when the store is of a kind (or key and value types) the query does
    /// not know, Kafka's UNKNOWN_QUERY_TYPE.
    virtual bool run(state_store& store, R& out) const = 0;
    virtual const char* name() const = 0;
};

namespace detail {

/// Calls f(store, strip) with `s` as Store<K, V>, or as Store<K, value_and_timestamp<V>> with strip
/// dropping the timestamp (as the IQv1 views); false if it is neither.
template <template <class, class> class Store, class K, class V, class F>
bool with_store(state_store& s, F&& f) {
    if (auto* plain = dynamic_cast<Store<K, V>*>(&s)) {
        f(*plain, [](V v) { return v; });
        return true;
    }
    if constexpr (!is_value_and_timestamp<V>::value) {
        if (auto* ts = dynamic_cast<Store<K, value_and_timestamp<V>>*>(&s)) {
            f(*ts, [](value_and_timestamp<V> v) { return std::move(v.value); });
            return true;
        }
    }
    return false;
}

template <class Entry, class It, class Strip>
std::vector<Entry> drain(It it, Strip strip) {
    std::vector<Entry> out;
    while (it.has_next()) {
        auto kv = it.next();
        out.push_back({std::move(kv.key), strip(std::move(kv.value))});
    }
    return out;
}

/// One partition of a query: the instance to read, or why there is none.
struct partition_query {
    std::int32_t partition = -1;  ///< -1: the store is global
    std::shared_ptr<queryable_instance> instance;
    std::optional<failure_reason> failure;
    std::string message;
};

}  // namespace detail

/// Kafka's KeyQuery: the value of a key (nullopt: none). Over a timestamped store (a DSL table's)
/// the value comes without its timestamp.
template <class K, class V>
class key_query final : public state_query<std::optional<V>> {
public:
    static key_query with_key(K key) { return key_query(std::move(key)); }
    const K& key() const { return key_; }
    bool run(state_store& s, std::optional<V>& out) const override {
        return detail::with_store<key_value_store, K, V>(s, [&](auto& store, auto strip) {
            if (auto v = store.get(key_)) out = strip(std::move(*v));
        });
    }
    const char* name() const override { return "KeyQuery"; }

private:
    explicit key_query(K key) : key_(std::move(key)) {}
    K key_;
};

/// Kafka's TimestampedKeyQuery: the value of a key with its timestamp; timestamped stores only.
template <class K, class V>
class timestamped_key_query final : public state_query<std::optional<value_and_timestamp<V>>> {
public:
    static timestamped_key_query with_key(K key) { return timestamped_key_query(std::move(key)); }
    bool run(state_store& s, std::optional<value_and_timestamp<V>>& out) const override {
        auto* store = dynamic_cast<key_value_store<K, value_and_timestamp<V>>*>(&s);
        if (!store) return false;
        out = store->get(key_);
        return true;
    }
    const char* name() const override { return "TimestampedKeyQuery"; }

private:
    explicit timestamped_key_query(K key) : key_(std::move(key)) {}
    K key_;
};

namespace detail {
/// What range_query and timestamped_range_query share: bounds (nullopt: open) and the order.
template <class K, class Self>
class range_bounds {
public:
    static Self with_range(std::optional<K> lower, std::optional<K> upper) { return Self(std::move(lower), std::move(upper)); }
    static Self with_lower_bound(K lower) { return Self(std::move(lower), std::nullopt); }
    static Self with_upper_bound(K upper) { return Self(std::nullopt, std::move(upper)); }
    static Self with_no_bounds() { return Self(std::nullopt, std::nullopt); }
    Self with_descending_keys() const {
        Self s = static_cast<const Self&>(*this);
        s.descending_ = true;
        return s;
    }
    Self with_ascending_keys() const {
        Self s = static_cast<const Self&>(*this);
        s.descending_ = false;
        return s;
    }
    const std::optional<K>& lower_bound() const { return lower_; }
    const std::optional<K>& upper_bound() const { return upper_; }
    bool descending() const { return descending_; }

protected:
    range_bounds(std::optional<K> lower, std::optional<K> upper) : lower_(std::move(lower)), upper_(std::move(upper)) {}
    template <class Store>
    auto scan(Store& store) const {
        return descending_ ? store.reverse_range(lower_, upper_) : store.range(lower_, upper_);
    }

private:
    std::optional<K> lower_, upper_;
    bool descending_ = false;
};
}  // namespace detail

/// Kafka's RangeQuery: the keys in [lower, upper] (open where not given), in key order.
template <class K, class V>
class range_query final : public state_query<std::vector<key_value<K, V>>>,
                          public detail::range_bounds<K, range_query<K, V>> {
public:
    bool run(state_store& s, std::vector<key_value<K, V>>& out) const override {
        return detail::with_store<key_value_store, K, V>(
            s, [&](auto& store, auto strip) { out = detail::drain<key_value<K, V>>(this->scan(store), strip); });
    }
    const char* name() const override { return "RangeQuery"; }

private:
    friend class detail::range_bounds<K, range_query>;
    using detail::range_bounds<K, range_query>::range_bounds;
};

/// Kafka's TimestampedRangeQuery: as range_query, each value with its timestamp.
template <class K, class V>
class timestamped_range_query final : public state_query<std::vector<key_value<K, value_and_timestamp<V>>>>,
                                      public detail::range_bounds<K, timestamped_range_query<K, V>> {
public:
    using entry = key_value<K, value_and_timestamp<V>>;
    bool run(state_store& s, std::vector<entry>& out) const override {
        auto* store = dynamic_cast<key_value_store<K, value_and_timestamp<V>>*>(&s);
        if (!store) return false;
        out = detail::drain<entry>(this->scan(*store), [](value_and_timestamp<V> v) { return v; });
        return true;
    }
    const char* name() const override { return "TimestampedRangeQuery"; }

private:
    friend class detail::range_bounds<K, timestamped_range_query>;
    using detail::range_bounds<K, timestamped_range_query>::range_bounds;
};

/// Kafka's WindowKeyQuery: (window start, value) of a key's windows starting in [time_from,
/// time_to]. V may be value_and_timestamp<...> over a timestamped window store.
template <class K, class V>
class window_key_query final : public state_query<std::vector<key_value<std::int64_t, V>>> {
public:
    static window_key_query with_key_and_window_start_range(K key, std::int64_t time_from, std::int64_t time_to) {
        return window_key_query(std::move(key), time_from, time_to);
    }
    bool run(state_store& s, std::vector<key_value<std::int64_t, V>>& out) const override {
        return detail::with_store<window_store, K, V>(s, [&](auto& store, auto strip) {
            out = detail::drain<key_value<std::int64_t, V>>(store.fetch(key_, from_, to_), strip);
        });
    }
    const char* name() const override { return "WindowKeyQuery"; }

private:
    window_key_query(K key, std::int64_t from, std::int64_t to) : key_(std::move(key)), from_(from), to_(to) {}
    K key_;
    std::int64_t from_, to_;
};

/// Kafka's WindowRangeQuery: every window of one key (with_key), or every key's windows starting
/// in [time_from, time_to] (with_window_start_range), as (windowed key, value). Over a session
/// store, as Kafka's, only with_key: the key's sessions (with_window_start_range there is an
/// unknown query type).
template <class K, class V>
class window_range_query final : public state_query<std::vector<key_value<windowed<K>, V>>> {
public:
    using entry = key_value<windowed<K>, V>;
    static window_range_query with_key(K key) { return window_range_query(std::move(key), 0, std::numeric_limits<std::int64_t>::max()); }
    static window_range_query with_window_start_range(std::int64_t time_from, std::int64_t time_to) {
        return window_range_query(std::nullopt, time_from, time_to);
    }
    bool run(state_store& s, std::vector<entry>& out) const override {
        if (auto* sessions = dynamic_cast<session_store<K, V>*>(&s)) {
            if (!key_ || from_ != 0 || to_ != std::numeric_limits<std::int64_t>::max()) return false;
            out = detail::drain<entry>(sessions->fetch(*key_), [](V v) { return v; });
            return true;
        }
        return detail::with_store<window_store, K, V>(s, [&](auto& store, auto strip) {
            out = key_ ? detail::drain<entry>(store.fetch(key_, key_, from_, to_), strip)
                       : detail::drain<entry>(store.fetch_all(from_, to_), strip);
        });
    }
    const char* name() const override { return "WindowRangeQuery"; }

private:
    window_range_query(std::optional<K> key, std::int64_t from, std::int64_t to) : key_(std::move(key)), from_(from), to_(to) {}
    std::optional<K> key_;
    std::int64_t from_, to_;
};

/// Kafka's VersionedKeyQuery: the latest version of a key, or the one valid at as_of(timestamp).
template <class K, class V>
class versioned_key_query final : public state_query<std::optional<versioned_record<V>>> {
public:
    static versioned_key_query with_key(K key) { return versioned_key_query(std::move(key)); }
    versioned_key_query as_of(std::int64_t timestamp) const {
        versioned_key_query q = *this;
        q.as_of_ = timestamp;
        return q;
    }
    bool run(state_store& s, std::optional<versioned_record<V>>& out) const override {
        auto* store = dynamic_cast<versioned_key_value_store<K, V>*>(&s);
        if (!store) return false;
        out = as_of_ ? store->get(key_, *as_of_) : store->get(key_);
        return true;
    }
    const char* name() const override { return "VersionedKeyQuery"; }

private:
    explicit versioned_key_query(K key) : key_(std::move(key)) {}
    K key_;
    std::optional<std::int64_t> as_of_;
};

/// Kafka's MultiVersionedKeyQuery: the versions of a key (not tombstones) valid at some time in
/// [from_time, to_time] (each open unless given), as far as the history retention keeps them,
/// newest first unless with_ascending_timestamps().
template <class K, class V>
class multi_versioned_key_query final : public state_query<std::vector<versioned_record<V>>> {
public:
    static multi_versioned_key_query with_key(K key) { return multi_versioned_key_query(std::move(key)); }
    multi_versioned_key_query from_time(std::int64_t t) const {
        auto q = *this;
        q.from_ = t;
        return q;
    }
    multi_versioned_key_query to_time(std::int64_t t) const {
        auto q = *this;
        q.to_ = t;
        return q;
    }
    multi_versioned_key_query with_ascending_timestamps() const {
        auto q = *this;
        q.ascending_ = true;
        return q;
    }
    multi_versioned_key_query with_descending_timestamps() const {
        auto q = *this;
        q.ascending_ = false;
        return q;
    }
    bool run(state_store& s, std::vector<versioned_record<V>>& out) const override {
        auto* store = dynamic_cast<versioned_key_value_store<K, V>*>(&s);
        if (!store) return false;
        auto found = store->versions(key_, from_, to_);
        if (!found) return false;
        out = std::move(*found);
        if (!ascending_) std::reverse(out.begin(), out.end());
        return true;
    }
    const char* name() const override { return "MultiVersionedKeyQuery"; }

private:
    explicit multi_versioned_key_query(K key) : key_(std::move(key)) {}
    K key_;
    std::int64_t from_ = std::numeric_limits<std::int64_t>::min();
    std::int64_t to_ = std::numeric_limits<std::int64_t>::max();
    bool ascending_ = false;
};

/// Kafka's PositionBound: how far a partition must have processed to answer. unbounded() (the
/// default) answers whatever the partition holds; at(position) only where, for every input topic
/// the bound names at the store's partition, the partition's position has reached the bound's
/// offset (otherwise not_up_to_bound). A client reads the position of one answer
/// (state_query_result::position()) and asks the next query at it to read its own writes.
class position_bound {
public:
    static position_bound unbounded() { return position_bound(std::nullopt); }
    static position_bound at(query_position p) { return position_bound(std::move(p)); }
    bool is_unbounded() const { return !bound_; }
    /// The bound; empty when unbounded.
    const query_position& position() const {
        static const query_position none;
        return bound_ ? *bound_ : none;
    }
    /// Whether `seen` (store partition `partition`'s position) is up to the bound, as Kafka's: a
    /// topic bounded at another partition does not count.
    bool permits(const query_position& seen, std::int32_t partition) const {
        if (!bound_) return true;
        for (const auto& [topic, partitions] : *bound_) {
            const auto want = partitions.find(partition);
            if (want == partitions.end()) continue;
            const auto t = seen.find(topic);
            if (t == seen.end()) return false;
            const auto have = t->second.find(partition);
            if (have == t->second.end() || have->second < want->second) return false;
        }
        return true;
    }

private:
    explicit position_bound(std::optional<query_position> b) : bound_(std::move(b)) {}
    std::optional<query_position> bound_;
};

/// Kafka's StateQueryRequest: a query on a store, on all its local partitions or some, made with
/// in_store(name).with_query(q).
template <class R>
class state_query_request {
public:
    state_query_request(std::string store, std::shared_ptr<const state_query<R>> q)
        : store_(std::move(store)), query_(std::move(q)) {}
    /// Only these partitions (Kafka's withPartitions); one not hosted here answers not_present.
    state_query_request partitions(std::vector<std::int32_t> ps) const {
        auto r = *this;
        r.partitions_ = std::move(ps);
        return r;
    }
    state_query_request with_all_partitions() const {
        auto r = *this;
        r.partitions_.reset();
        return r;
    }
    /// Only running active tasks answer; the others fail with not_active.
    state_query_request require_active() const {
        auto r = *this;
        r.require_active_ = true;
        return r;
    }
    /// Only partitions whose position is up to `bound` answer; the others fail with not_up_to_bound.
    state_query_request with_position_bound(position_bound bound) const {
        auto r = *this;
        r.bound_ = std::move(bound);
        return r;
    }
    const kstreams::position_bound& get_position_bound() const { return bound_; }
    const std::string& store_name() const { return store_; }
    bool is_all_partitions() const { return !partitions_; }
    const std::optional<std::vector<std::int32_t>>& partitions() const { return partitions_; }
    bool is_require_active() const { return require_active_; }
    const state_query<R>& query() const { return *query_; }

private:
    std::string store_;
    std::shared_ptr<const state_query<R>> query_;
    std::optional<std::vector<std::int32_t>> partitions_;
    bool require_active_ = false;
    kstreams::position_bound bound_ = kstreams::position_bound::unbounded();
};

/// Kafka's StateQueryRequest.inStore(name).
struct in_store {
    explicit in_store(std::string name) : store(std::move(name)) {}
    template <class Q>
    state_query_request<typename Q::result_type> with_query(Q q) const {
        return {store, std::make_shared<const Q>(std::move(q))};
    }
    std::string store;
};

template <class R>
state_query_result<R> kafka_streams::query(const state_query_request<R>& request) const {
    state_query_result<R> out;
    for (const auto& target : query_partitions(request.store_name(), request.partitions(), request.is_require_active())) {
        if (target.partition < 0) {
            out.set_global_result(query_result<R>::failure(
                failure_reason::unknown_query_type,
                "Global stores do not yet support the KafkaStreams#query API. Use KafkaStreams#store instead."));
            continue;
        }
        if (target.failure) {
            out.add_result(target.partition, query_result<R>::failure(*target.failure, target.message));
            continue;
        }
        R r{};
        bool known = false;
        bool up_to_bound = true;
        query_position pos;
        try {
            target.instance->read([&](state_store& s) {
                pos = target.instance->position();
                up_to_bound = request.get_position_bound().permits(pos, target.partition);
                if (up_to_bound) known = request.query().run(s, r);
            });
        } catch (const invalid_state_store_error& e) {  // it closed or began restoring since it was listed
            out.add_result(target.partition,
                           query_result<R>::failure(request.is_require_active() ? failure_reason::not_active
                                                                                : failure_reason::not_present,
                                                    e.what()));
            continue;
        } catch (const std::exception& e) {
            out.add_result(target.partition, query_result<R>::failure(failure_reason::store_exception, e.what()));
            continue;
        }
        if (!up_to_bound)
            out.add_result(target.partition,
                           query_result<R>::failure(failure_reason::not_up_to_bound,
                                                    "For store partition " + std::to_string(target.partition) +
                                                        ", the current position is not yet up to the bound."));
        else if (!known)
            out.add_result(target.partition,
                           query_result<R>::failure(failure_reason::unknown_query_type,
                                                    "This store (" + request.store_name() +
                                                        ") doesn't know how to execute the given query (" +
                                                        request.query().name() +
                                                        ") because its kind, key or value type differs."));
        else
            out.add_result(target.partition, query_result<R>::success(std::move(r), std::move(pos)));
    }
    return out;
}

}  // namespace kstreams
