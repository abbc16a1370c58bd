// global_ktable<K,V>: a table every instance keeps whole (streams_builder::global_table). Its
// store is a global store, filled from all partitions of the topic before processing starts and
// kept up to date after; streams join it through a key mapper (kstream_global_join.hpp), with no
// repartitioning and no co-partitioning.
#pragma once

#include <memory>
#include <string>

#include <kstreams/dsl/detail/graph.hpp>
#include <kstreams/dsl/serde_ref.hpp>

namespace kstreams {

template <class K, class V>
class global_ktable {
public:
    using key_type = K;
    using value_type = V;

    /// The global store's name (queryable as a timestamped key-value store).
    const std::string& queryable_store_name() const { return store_; }

private:
    template <class, class> friend class kstream;
    friend class streams_builder;

    global_ktable(std::shared_ptr<dsl_detail::builder_state> b, std::string store, serde_ref<K> ks, serde_ref<V> vs)
        : b_(std::move(b)), store_(std::move(store)), key_serde_(std::move(ks)), value_serde_(std::move(vs)) {}

    std::shared_ptr<dsl_detail::builder_state> b_;
    std::string store_;
    serde_ref<K> key_serde_;
    serde_ref<V> value_serde_;
};

}  // namespace kstreams
