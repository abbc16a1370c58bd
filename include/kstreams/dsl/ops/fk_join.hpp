// The processors of a foreign-key table-table join (KIP-213), as Kafka Streams 4.4's:
//   left:  subscription send (SubscriptionSendProcessorSupplier): a left row's change -> a
//          subscription to its foreign key (and an unsubscription of the old one when it changed);
//   right: subscription receive (SubscriptionReceiveProcessorSupplier): keeps the subscription in
//          the subscription store, keyed by (foreign key, primary key);
//          subscription join (SubscriptionJoinProcessorSupplier): answers it with the right row;
//          foreign table join (ForeignTableJoinProcessorSupplier): a right row's change -> a
//          response to every primary key subscribed to it (a prefix scan of the store);
//   left:  response resolver (ResponseJoinProcessorSupplier): drops a response whose hash is not
//          the hash of the left row's current value (stale: the row changed since), else joins.
// Subscriptions and responses cross the two internal topics in fk_join_wire.hpp's formats.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include <kstreams/detail/node.hpp>
#include <kstreams/detail/task_context.hpp>
#include <kstreams/dsl/change.hpp>
#include <kstreams/dsl/detail/fk_join_wire.hpp>
#include <kstreams/dsl/detail/value_getter.hpp>
#include <kstreams/dsl/ops/store_access.hpp>
#include <kstreams/dsl/ops/table_table_join.hpp>
#include <kstreams/dsl/serde_ref.hpp>
#include <kstreams/error.hpp>
#include <kstreams/metrics.hpp>

namespace kstreams::dsl_detail {

namespace fk_metric {
/// A left row whose foreign key is null, in an inner join (Kafka counts it as dropped).
inline constexpr std::string_view null_foreign_key = "dropped-records.null-foreign-key";
/// A response for a left value that has changed since (its hash differs).
inline constexpr std::string_view stale_response = "dropped-records.stale-response";
/// An out-of-order update (not the key's latest) of a versioned table on either side.
inline constexpr std::string_view out_of_order = "dropped-records.out-of-order";
}  // namespace fk_metric

/// The subscription store: serialized combined key -> subscription and its timestamp.
using subscription_store = timestamped_key_value_store<std::string, subscription_wrapper>;

/// The foreign key of a left row: the extractor's result, nullopt for Kafka's null (an empty
/// std::optional, or a value the key serde calls null).
template <class KO, class Fk, class K, class V>
std::optional<KO> extract_foreign_key(Fk& fk, const K& key, const V& value, const serde_ref<KO>& fk_serde) {
    auto call = [&]() -> decltype(auto) {
        if constexpr (std::is_invocable_v<Fk&, const K&, const V&>) return fk(key, value);
        else return fk(value);
    };
    using R = std::decay_t<decltype(call())>;
    std::optional<KO> out;
    if constexpr (is_optional_v<R> && !is_optional_v<KO>) {
        if (auto r = call()) out.emplace(std::move(*r));
    } else {
        out.emplace(call());
        if constexpr (is_optional_v<KO>)
            if (!out->has_value()) out.reset();
    }
    if (out && fk_serde.is_null(*out)) out.reset();
    return out;
}

/// KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION: a left row's change -> subscriptions.
template <class K, class V, class KO, class Fk>
class subscription_send_node final : public kstreams::detail::node {
public:
    /// `versioned`: the left table is versioned, whose out-of-order updates are dropped.
    subscription_send_node(std::string name, Fk fk, bool left_join, serde_ref<K> ks, serde_ref<V> vs, serde_ref<KO> fks,
                           bool versioned = false)
        : node(std::move(name)), fk_(std::move(fk)), left_(left_join), ks_(std::move(ks)), vs_(std::move(vs)),
          fks_(std::move(fks)), versioned_(versioned) {}

    void process_erased(const void* p) override {
        const auto& r = *static_cast<const record<K, change<V>>*>(p);
        // As Kafka's: an older version of a row must not move its subscription.
        if (versioned_ && !r.value.is_latest) {
            ctx_->record_dropped(fk_metric::out_of_order, *this);
            return;
        }
        const std::optional<V>& ov = r.value.old_value;
        const std::optional<V>& nv = r.value.new_value;
        hash_.reset();
        hashed_ = false;
        pk_.clear();
        ks_.serialize(r.key, pk_);
        const std::optional<KO> old_fk = ov ? extract_foreign_key<KO>(fk_, r.key, *ov, fks_) : std::nullopt;
        if (left_) {
            if (!ov && !nv) return;  // an idempotent delete
            const std::optional<KO> new_fk = nv ? extract_foreign_key<KO>(fk_, r.key, *nv, fks_) : std::nullopt;
            if (old_fk && bytes_of(new_fk) != bytes_of(old_fk)) send(r, old_fk, fk_instruction::delete_key_no_propagate);
            // Every change gets an answer (a delete one with a null foreign key), so that a left
            // row always has a result.
            send(r, new_fk, fk_instruction::propagate_null_if_no_fk_val);
            return;
        }
        if (nv) {
            const std::optional<KO> new_fk = extract_foreign_key<KO>(fk_, r.key, *nv, fks_);
            if (!new_fk) {
                ctx_->record_dropped(fk_metric::null_foreign_key, *this);
                if (old_fk) send(r, old_fk, fk_instruction::delete_key_and_propagate);
            } else if (!old_fk) {
                send(r, new_fk, fk_instruction::propagate_only_if_fk_val);
            } else if (bytes_of(new_fk) != bytes_of(old_fk)) {
                send(r, old_fk, fk_instruction::delete_key_no_propagate);
                send(r, new_fk, fk_instruction::propagate_null_if_no_fk_val);
            } else {
                send(r, new_fk, fk_instruction::propagate_only_if_fk_val);
            }
        } else if (old_fk) {
            send(r, old_fk, fk_instruction::delete_key_and_propagate);
        }
    }

private:
    std::optional<std::string> bytes_of(const std::optional<KO>& k) const {
        if (!k) return std::nullopt;
        std::string out;
        fks_.serialize(*k, out);
        return out;
    }
    void send(const record<K, change<V>>& r, const std::optional<KO>& fk, fk_instruction instruction) {
        if (!hashed_) {
            hashed_ = true;
            if (r.value.new_value) {
                std::string bytes;
                vs_.serialize(*r.value.new_value, bytes);
                hash_ = murmur3_hash128(bytes);
            }
        }
        record<KO, subscription_wrapper> out{fk ? *fk : KO{}, {hash_, instruction, pk_, ctx_->id().partition}, r.timestamp,
                                             r.headers, !fk.has_value(), false};
        forward(out);
    }

    Fk fk_;
    bool left_;
    serde_ref<K> ks_;
    serde_ref<V> vs_;
    serde_ref<KO> fks_;
    bool versioned_;
    std::string pk_;
    std::optional<value_hash> hash_;
    bool hashed_ = false;
};

/// The subscription store key of a subscription: {length}{foreign key}{primary key}.
template <class KO>
std::string combined_key(const serde_ref<KO>& fks, const KO& fk, std::string_view pk) {
    std::string fk_bytes, out;
    fks.serialize(fk, fk_bytes);
    append_combined_key_prefix(fk_bytes, out);
    out.append(pk);
    return out;
}

inline void check_subscription_version(const subscription_wrapper& w, const kstreams::detail::node& where) {
    if (w.version > subscription_wrapper::current_version)
        throw streams_error("processor " + where.name() + ": subscription of version " + std::to_string(w.version) +
                            " is newer than this library understands (" +
                            std::to_string(subscription_wrapper::current_version) + ")");
}

/// KTABLE-FK-JOIN-SUBSCRIPTION-PROCESSOR (receive): keeps or removes the subscription.
template <class KO>
class subscription_receive_node final : public kstreams::detail::node {
public:
    subscription_receive_node(std::string name, std::string store, serde_ref<KO> fks)
        : node(std::move(name)), store_name_(std::move(store)), fks_(std::move(fks)) {}
    void init(kstreams::detail::task_context& ctx) override {
        node::init(ctx);
        store_ = &timestamped_store<std::string, subscription_wrapper>(ctx, store_name_, *this);
    }
    void process_erased(const void* p) override {
        const auto& r = *static_cast<const record<KO, subscription_wrapper>*>(p);
        const bool null_fk = has_null_key(r) || fks_.is_null(r.key);
        if (null_fk && r.value.instruction != fk_instruction::propagate_null_if_no_fk_val) {
            ctx_->record_dropped(fk_metric::null_foreign_key, *this);
            return;
        }
        check_subscription_version(r.value, *this);
        if (!null_fk) {
            const std::string key = combined_key(fks_, r.key, r.value.primary_key);
            if (r.value.instruction == fk_instruction::delete_key_and_propagate ||
                r.value.instruction == fk_instruction::delete_key_no_propagate)
                store_->erase(key);
            else
                store_->put(key, {r.value, r.timestamp});
        }
        forward(r);
    }

private:
    std::string store_name_;
    serde_ref<KO> fks_;
    subscription_store* store_ = nullptr;
};

/// What a subscription or a right row's change answers: the right row for one primary key.
inline record<std::string, subscription_response> response_record(std::string primary_key, const subscription_wrapper& w,
                                                                   std::optional<std::string> foreign_value,
                                                                   std::int64_t ts, const headers& hdrs) {
    return {std::move(primary_key), {w.hash, std::move(foreign_value), w.primary_partition}, ts, hdrs};
}

/// KTABLE-FK-JOIN-SUBSCRIPTION-PROCESSOR (join foreign): answers a subscription with the right
/// row, timestamped with the later of the two.
template <class KO, class VO>
class subscription_join_node final : public kstreams::detail::node {
public:
    subscription_join_node(std::string name, value_getter_supplier<KO, VO> right, serde_ref<KO> fks, serde_ref<VO> vos)
        : node(std::move(name)), right_(std::move(right)), fks_(std::move(fks)), vos_(std::move(vos)) {}
    void init(kstreams::detail::task_context& ctx) override {
        node::init(ctx);
        getter_ = right_.make();
        getter_->init(ctx, *this);
    }
    void close() override {
        if (getter_) getter_->close();
    }
    void process_erased(const void* p) override {
        const auto& r = *static_cast<const record<KO, subscription_wrapper>*>(p);
        const subscription_wrapper& w = r.value;
        check_subscription_version(w, *this);
        const bool null_fk = has_null_key(r) || fks_.is_null(r.key);
        std::optional<value_and_timestamp<VO>> row;
        if (!null_fk) row = getter_->get(r.key);
        const std::int64_t ts = row ? std::max(r.timestamp, row->timestamp) : r.timestamp;
        switch (w.instruction) {
            case fk_instruction::delete_key_and_propagate:
                forward(response_record(w.primary_key, w, std::nullopt, ts, r.headers));
                break;
            case fk_instruction::propagate_null_if_no_fk_val:
                forward(response_record(w.primary_key, w, bytes_of(row), ts, r.headers));
                break;
            case fk_instruction::propagate_only_if_fk_val:
                if (row) forward(response_record(w.primary_key, w, bytes_of(row), ts, r.headers));
                break;
            case fk_instruction::delete_key_no_propagate:
                break;
        }
    }

private:
    std::optional<std::string> bytes_of(const std::optional<value_and_timestamp<VO>>& row) const {
        if (!row || vos_.is_null(row->value)) return std::nullopt;
        std::string out;
        vos_.serialize(row->value, out);
        return out;
    }

    value_getter_supplier<KO, VO> right_;
    serde_ref<KO> fks_;
    serde_ref<VO> vos_;
    std::unique_ptr<value_getter<KO, VO>> getter_;
};

/// KTABLE-FK-JOIN-SUBSCRIPTION-PROCESSOR (foreign join subscription): a right row's change ->
/// a response to every primary key subscribed to its key, in the order of their bytes.
template <class KO, class VO>
class foreign_table_join_node final : public kstreams::detail::node {
public:
    /// `versioned`: the right table is versioned, whose out-of-order updates are dropped.
    foreign_table_join_node(std::string name, std::string store, serde_ref<KO> fks, serde_ref<VO> vos, bool versioned = false)
        : node(std::move(name)), store_name_(std::move(store)), fks_(std::move(fks)), vos_(std::move(vos)),
          versioned_(versioned) {}
    void init(kstreams::detail::task_context& ctx) override {
        node::init(ctx);
        store_ = &timestamped_store<std::string, subscription_wrapper>(ctx, store_name_, *this);
    }
    void process_erased(const void* p) override {
        const auto& r = *static_cast<const record<KO, change<VO>>*>(p);
        if (has_null_key(r)) {
            ctx_->record_dropped(metric::dropped_null_key, *this);
            return;
        }
        if (versioned_ && !r.value.is_latest) {
            ctx_->record_dropped(fk_metric::out_of_order, *this);
            return;
        }
        std::string fk_bytes, prefix;
        fks_.serialize(r.key, fk_bytes);
        append_combined_key_prefix(fk_bytes, prefix);
        std::optional<std::string> value;
        if (r.value.new_value && !vos_.is_null(*r.value.new_value)) {
            value.emplace();
            vos_.serialize(*r.value.new_value, *value);
        }
        auto it = store_->prefix_scan(prefix);
        while (it.has_next()) {
            key_value<std::string, value_and_timestamp<subscription_wrapper>> kv = it.next();
            forward(response_record(std::string(combined_key_primary(kv.key)), kv.value.value, value, r.timestamp, r.headers));
        }
    }

private:
    std::string store_name_;
    serde_ref<KO> fks_;
    serde_ref<VO> vos_;
    bool versioned_;
    subscription_store* store_ = nullptr;
};

/// KTABLE-FK-JOIN-SUBSCRIPTION-RESPONSE-RESOLVER-PROCESSOR: joins a response with the left row,
/// unless the left row changed since the subscription (its hash differs: the response is stale).
/// A missing right row gives a delete, or in a left join joiner(left, nullopt).
template <class K, class V, class VO, class VR, class Fn>
class response_join_node final : public kstreams::detail::node {
public:
    response_join_node(std::string name, value_getter_supplier<K, V> left, Fn fn, bool left_join, serde_ref<K> ks,
                       serde_ref<V> vs, serde_ref<VO> vos)
        : node(std::move(name)), left_getter_(std::move(left)), fn_(std::move(fn)), left_(left_join), ks_(std::move(ks)),
          vs_(std::move(vs)), vos_(std::move(vos)) {}
    void init(kstreams::detail::task_context& ctx) override {
        node::init(ctx);
        getter_ = left_getter_.make();
        getter_->init(ctx, *this);
    }
    void close() override {
        if (getter_) getter_->close();
    }
    void process_erased(const void* p) override {
        const auto& r = *static_cast<const record<std::string, subscription_response>*>(p);
        if (r.value.version != subscription_response::current_version)
            throw streams_error("processor " + name() + ": subscription response of version " +
                                std::to_string(r.value.version) + ", this library understands " +
                                std::to_string(subscription_response::current_version));
        const K key = ks_.deserialize(r.key);
        const std::optional<value_and_timestamp<V>> current = getter_->get(key);
        std::optional<value_hash> current_hash;
        if (current) {
            std::string bytes;
            vs_.serialize(current->value, bytes);
            current_hash = murmur3_hash128(bytes);
        }
        if (current_hash != r.value.hash) {
            ctx_->record_dropped(fk_metric::stale_response, *this);
            return;
        }
        std::optional<VO> right;
        if (r.value.foreign_value) right.emplace(vos_.deserialize(*r.value.foreign_value));
        std::optional<VR> result;
        if (current && (right || left_))
            result = joined_row<K, V, VO, VR>(fn_, key, &current->value, right ? &*right : nullptr);
        forward(with_nullable_value<K, VR>(r, result, key));
    }

private:
    value_getter_supplier<K, V> left_getter_;
    Fn fn_;
    bool left_;
    serde_ref<K> ks_;
    serde_ref<V> vs_;
    serde_ref<VO> vos_;
    std::unique_ptr<value_getter<K, V>> getter_;
};

}  // namespace kstreams::dsl_detail
