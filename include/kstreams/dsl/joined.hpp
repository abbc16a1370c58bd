// Options of a stream-table join (Kafka's Joined): serdes and a name. KS serializes the key and VS
// this stream's values (both used when the stream is repartitioned before the join); OS the
// table's values. no_serde = inherit from the joined stream and table (or serde<T>). A grace
// period (KIP-923, only with a versioned table) holds stream records back in a buffer and joins
// them in timestamp order once stream time has passed them by the grace.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <utility>

#include <kstreams/dsl/options.hpp>
#include <kstreams/dsl/serde_ref.hpp>

namespace kstreams {

template <class KS = no_serde, class VS = no_serde, class OS = no_serde>
struct joined {
    KS key_serde{};
    VS value_serde{};
    OS other_value_serde{};
    std::string name;  ///< names the join processor and a repartition topic before it
    std::optional<std::chrono::milliseconds> grace{};

    static joined as(std::string n) {
        dsl_detail::check_name(n, "joined::as");
        joined j;
        j.name = std::move(n);
        return j;
    }
    template <class S>
    joined<S, VS, OS> with_key_serde(S s) const { return {std::move(s), value_serde, other_value_serde, name, grace}; }
    template <class S>
    joined<KS, S, OS> with_value_serde(S s) const { return {key_serde, std::move(s), other_value_serde, name, grace}; }
    template <class S>
    joined<KS, VS, S> with_other_value_serde(S s) const { return {key_serde, value_serde, std::move(s), name, grace}; }
    joined with_name(std::string n) const {
        dsl_detail::check_name(n, "joined::with_name");
        auto c = *this;
        c.name = std::move(n);
        return c;
    }
    /// Kafka's Joined.withGracePeriod: the table must be materialized in a versioned store.
    joined with_grace_period(std::chrono::milliseconds g) const { auto c = *this; c.grace = g; return c; }
};
template <class KS, class VS, class OS>
joined<KS, VS, OS> joined_with(KS ks, VS vs, OS os) { return {std::move(ks), std::move(vs), std::move(os), {}, {}}; }

}  // namespace kstreams
