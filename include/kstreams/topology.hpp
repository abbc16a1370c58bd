// A topology: sources, processors, sinks and stores, wired by name (Kafka Streams' Topology).
#pragma once

#include <concepts>
#include <type_traits>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <kstreams/detail/sink_node.hpp>
#include <kstreams/detail/source_node.hpp>
#include <kstreams/detail/topology_model.hpp>
#include <kstreams/processor.hpp>
#include <kstreams/serde.hpp>
#include <kstreams/state/state_store.hpp>

namespace kstreams {

namespace detail {
class topology_writer;
}

/// One sub-topology: the nodes connected to each other (directly or through a shared store).
struct subtopology_description {
    int id = 0;
    std::vector<std::string> nodes;  ///< in the order describe() prints them
};

/// The shape of a topology, printed as Kafka Streams' TopologyDescription prints it.
struct topology_description {
    std::vector<subtopology_description> subtopologies;
    std::string text;
    const std::string& to_string() const { return text; }
};

/// Options of a source beyond its serdes.
struct source_options {
    timestamp_extractor extractor;  ///< empty = the record's own timestamp
    offset_reset reset = offset_reset::none;
};

class topology {
public:
    topology();
    ~topology();
    topology(topology&&) noexcept;
    topology& operator=(topology&&) noexcept;

    /// A source reading `topics` with serdes for K and V.
    template <class K, class V, class KS = default_serde_t<K>, class VS = default_serde_t<V>>
    topology& add_source(std::string name, std::vector<std::string> topics, KS ks = KS{}, VS vs = VS{},
                         source_options options = {}) {
        static_assert(serde_for<KS, K>, "kstreams: add_source: the key serde does not produce K");
        static_assert(serde_for<VS, V>, "kstreams: add_source: the value serde does not produce V");
        auto def = make_source_def<K, V>(std::move(name), std::move(ks), std::move(vs), std::move(options));
        def.topics = std::move(topics);
        return add_node(std::move(def));
    }

    /// A source reading every topic whose name matches the regular expression `pattern`.
    template <class K, class V, class KS = default_serde_t<K>, class VS = default_serde_t<V>>
    topology& add_source_pattern(std::string name, std::string pattern, KS ks = KS{}, VS vs = VS{},
                                 source_options options = {}) {
        static_assert(serde_for<KS, K>, "kstreams: add_source_pattern: the key serde does not produce K");
        static_assert(serde_for<VS, V>, "kstreams: add_source_pattern: the value serde does not produce V");
        auto def = make_source_def<K, V>(std::move(name), std::move(ks), std::move(vs), std::move(options));
        def.pattern = std::move(pattern);
        return add_node(std::move(def));
    }

    /// A processor made by `supplier` (one instance per task), fed by `parents`.
    template <class Supplier>
        requires processor_type<typename std::invoke_result_t<Supplier&>::element_type>
    topology& add_processor(std::string name, Supplier supplier, std::vector<std::string> parents,
                            std::vector<std::string> stores = {}) {
        using P = typename std::invoke_result_t<Supplier&>::element_type;
        return add_processor_node<P, detail::processor_node<P>>(std::move(name), std::move(supplier),
                                                                std::move(parents), std::move(stores));
    }

    /// An async processor (kstreams/async.hpp: process() is a coroutine) made by `supplier`.
    template <class Supplier>
        requires detail::async_processor_marked<typename std::invoke_result_t<Supplier&>::element_type>
    topology& add_processor(std::string name, Supplier supplier, std::vector<std::string> parents,
                            std::vector<std::string> stores = {}) {
        using P = typename std::invoke_result_t<Supplier&>::element_type;
        return add_processor_node<P, detail::async_processor_node<P>>(std::move(name), std::move(supplier),
                                                                      std::move(parents), std::move(stores));
    }

    /// A sink writing to `topic`, with an optional custom partitioner.
    template <class K, class V, class KS = default_serde_t<K>, class VS = default_serde_t<V>>
    topology& add_sink(std::string name, std::string topic, std::vector<std::string> parents, KS ks = KS{},
                       VS vs = VS{}, stream_partitioner<K, V> partitioner = {}) {
        static_assert(serde_for<KS, K>, "kstreams: add_sink: the key serde does not serialize K");
        static_assert(serde_for<VS, V>, "kstreams: add_sink: the value serde does not serialize V");
        detail::node_def def = make_sink_def<K, V>(std::move(name), std::move(parents));
        def.topic = topic;
        def.make = [n = def.name, topic, ks, vs, partitioner]() -> std::unique_ptr<detail::node> {
            return std::make_unique<detail::sink_node<K, V, KS, VS>>(n, topic, topic_name_extractor<K, V>{},
                                                                     ks, vs, partitioner);
        };
        return add_node(std::move(def));
    }

    /// A sink that picks each record's topic with `extractor`.
    template <class K, class V, class KS = default_serde_t<K>, class VS = default_serde_t<V>>
    topology& add_sink(std::string name, topic_name_extractor<K, V> extractor, std::vector<std::string> parents,
                       KS ks = KS{}, VS vs = VS{}, stream_partitioner<K, V> partitioner = {}) {
        contextual_topic_name_extractor<K, V> with_source;
        if (extractor)
            with_source = [f = std::move(extractor)](const record<K, V>& r, const record_metadata*) { return f(r); };
        return add_sink<K, V>(std::move(name), std::move(with_source), std::move(parents), std::move(ks), std::move(vs),
                              std::move(partitioner));
    }
    /// As above, the extractor also told where the record being processed came from.
    template <class K, class V, class KS = default_serde_t<K>, class VS = default_serde_t<V>>
    topology& add_sink(std::string name, contextual_topic_name_extractor<K, V> extractor,
                       std::vector<std::string> parents, KS ks = KS{}, VS vs = VS{},
                       stream_partitioner<K, V> partitioner = {}) {
        detail::node_def def = make_sink_def<K, V>(std::move(name), std::move(parents));
        def.make = [n = def.name, extractor, ks, vs, partitioner]() -> std::unique_ptr<detail::node> {
            return std::make_unique<detail::sink_node<K, V, KS, VS>>(n, std::string{}, extractor, ks, vs,
                                                                     partitioner);
        };
        return add_node(std::move(def));
    }

    /// A global store (Kafka's addGlobalStore): every instance fills it from all partitions of
    /// `topic` before processing starts and keeps following the topic; `supplier` makes the
    /// processor that writes each record of the topic into the store (it forwards nothing). Any
    /// processor of the topology may read the store without being connected to it. The builder
    /// must have logging disabled: the topic itself is the store's changelog.
    template <class K, class V, class Supplier, class KS = default_serde_t<K>, class VS = default_serde_t<V>>
        requires processor_type<typename std::invoke_result_t<Supplier&>::element_type>
    topology& add_global_store(std::shared_ptr<const store_builder> builder, std::string source_name, std::string topic,
                               std::string processor_name, Supplier supplier, KS ks = KS{}, VS vs = VS{},
                               source_options options = {}) {
        static_assert(serde_for<KS, K>, "kstreams: add_global_store: the key serde does not produce K");
        static_assert(serde_for<VS, V>, "kstreams: add_global_store: the value serde does not produce V");
        using P = typename std::invoke_result_t<Supplier&>::element_type;
        static_assert(std::is_same_v<typename P::key_in, K> && std::is_same_v<typename P::value_in, V>,
                      "kstreams: add_global_store: the update processor must take the records of the source (K, V)");
        auto src = make_source_def<K, V>(source_name, std::move(ks), std::move(vs), std::move(options));
        src.topics = {std::move(topic)};
        src.global = true;
        const std::string store = builder ? builder->name() : std::string{};
        add_node(std::move(src));
        add_processor_node<P, detail::processor_node<P>>(std::move(processor_name), std::move(supplier), {source_name},
                                                         {store});
        model_->nodes.back().global = true;
        return add_global_state_store(std::move(builder));
    }
    template <class K, class V, class B, class Supplier, class KS = default_serde_t<K>, class VS = default_serde_t<V>>
        requires std::derived_from<B, store_builder> && processor_type<typename std::invoke_result_t<Supplier&>::element_type>
    topology& add_global_store(B builder, std::string source_name, std::string topic, std::string processor_name,
                               Supplier supplier, KS ks = KS{}, VS vs = VS{}, source_options options = {}) {
        return add_global_store<K, V>(std::shared_ptr<const store_builder>(std::make_shared<B>(std::move(builder))),
                                      std::move(source_name), std::move(topic), std::move(processor_name),
                                      std::move(supplier), std::move(ks), std::move(vs), std::move(options));
    }
    /// (Internal) The store of a global store's update processor (add_global_store, the DSL).
    topology& add_global_state_store(std::shared_ptr<const store_builder> builder);

    /// A store, connected to the named processors (more can be connected later).
    topology& add_state_store(std::shared_ptr<const store_builder> builder,
                              std::vector<std::string> processors = {});
    template <class B>
        requires std::derived_from<B, store_builder>
    topology& add_state_store(B builder, std::vector<std::string> processors = {}) {
        return add_state_store(std::shared_ptr<const store_builder>(std::make_shared<B>(std::move(builder))),
                               std::move(processors));
    }
    topology& connect_processor_and_state_stores(std::string processor, std::vector<std::string> stores);

    /// Checks the whole topology; throws topology_error naming the offending node.
    void validate() const;
    /// Sub-topologies, sources, processors, sinks and stores (validates first).
    topology_description describe() const;

    /// The definitions, for the runtime and the test driver.
    const detail::topology_model& model() const { return *model_; }

private:
    friend class detail::topology_writer;  // the DSL's lowering (detail/topology_writer.hpp)
    topology& add_node(detail::node_def def);
    template <class P, class Node, class Supplier>
    topology& add_processor_node(std::string name, Supplier supplier, std::vector<std::string> parents,
                                 std::vector<std::string> stores) {
        detail::node_def def;
        def.kind = detail::node_kind::processor;
        def.name = std::move(name);
        def.parents = std::move(parents);
        def.stores = std::move(stores);
        def.in_type = typeid(record<typename P::key_in, typename P::value_in>);
        def.out_type = typeid(record<typename P::key_out, typename P::value_out>);
        def.make = [n = def.name, supplier = std::move(supplier)]() mutable -> std::unique_ptr<detail::node> {
            return std::make_unique<Node>(n, supplier());
        };
        return add_node(std::move(def));
    }

    template <class K, class V, class KS, class VS>
    static detail::node_def make_source_def(std::string name, KS ks, VS vs, source_options options) {
        detail::node_def def;
        def.kind = detail::node_kind::source;
        def.name = std::move(name);
        def.out_type = typeid(record<K, V>);
        def.extractor = std::move(options.extractor);
        def.reset = options.reset;
        def.make = [n = def.name, ks, vs]() -> std::unique_ptr<detail::node> {
            return std::make_unique<detail::typed_source_node<K, V, KS, VS>>(n, ks, vs);
        };
        return def;
    }
    template <class K, class V>
    static detail::node_def make_sink_def(std::string name, std::vector<std::string> parents) {
        detail::node_def def;
        def.kind = detail::node_kind::sink;
        def.name = std::move(name);
        def.parents = std::move(parents);
        def.in_type = typeid(record<K, V>);
        return def;
    }

    std::unique_ptr<detail::topology_model> model_;
};

}  // namespace kstreams
