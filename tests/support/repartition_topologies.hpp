// Topologies with a repartition topic in the path, in the Processor API (the DSL's group_by and
// table aggregation lower to the same shape): the sink and source around the topic are internal,
// so the runtime names it `<application.id>-<name>` and creates it with the upstream's partitions.
#pragma once

#include <memory>
#include <sstream>
#include <string>

#include <kstreams/detail/topology_writer.hpp>
#include <kstreams/state/stores.hpp>
#include <kstreams/topology.hpp>

namespace kstreams::test {

inline void make_repartition(topology& t, const std::string& sink, const std::string& source,
                             const std::string& topic) {
    using kstreams::detail::topology_writer;
    topology_writer::mark_internal(t, sink);
    topology_writer::mark_internal(t, source);
    topology_writer::add_repartition_topic(t, topic, std::nullopt);
}

/// value "customer amount" -> key customer, value amount.
struct rekey_by_customer : processor<std::string, std::string, std::string, std::int64_t> {
    void process(const record<std::string, std::string>& r) override {
        std::istringstream in(r.value);
        std::string customer;
        std::int64_t amount = 0;
        if (in >> customer >> amount) context().forward(record<std::string, std::int64_t>{customer, amount, r.timestamp});
    }
};

/// Adds each value to the key's total in store "sums" and forwards the total.
struct sum_per_key : processor<std::string, std::int64_t, std::string, std::int64_t> {
    key_value_store<std::string, std::int64_t>* sums = nullptr;
    void init(context_type& ctx) override {
        processor::init(ctx);
        sums = &ctx.get_state_store<key_value_store<std::string, std::int64_t>>("sums");
    }
    void process(const record<std::string, std::int64_t>& r) override {
        const std::int64_t total = sums->get(r.key).value_or(0) + r.value;
        sums->put(r.key, total);
        context().forward(r.with_value(total));
    }
};

/// purchases (id -> "customer amount") re-keyed by customer through a repartition topic, summed.
/// `persistent`: the sums in RocksDB behind the record cache (what a restart keeps), else in memory.
inline topology rekey_sum_topology(const std::string& in, const std::string& out, bool persistent = false) {
    topology t;
    auto supplier = persistent ? stores::persistent_key_value_store("sums") : stores::in_memory_key_value_store("sums");
    t.add_source<std::string, std::string>("purchases", {in})
        .add_processor("rekey", [] { return std::make_unique<rekey_by_customer>(); }, {"purchases"})
        .add_sink<std::string, std::int64_t>("to-repartition", "sums-repartition", {"rekey"})
        .add_source<std::string, std::int64_t>("from-repartition", {"sums-repartition"})
        .add_processor("sum", [] { return std::make_unique<sum_per_key>(); }, {"from-repartition"})
        .add_state_store(persistent ? stores::key_value_store_builder<std::string, std::int64_t>(supplier).with_caching_enabled()
                                    : stores::key_value_store_builder<std::string, std::int64_t>(supplier),
                         {"sum"})
        .add_sink<std::string, std::int64_t>("totals", out, {"sum"});
    make_repartition(t, "to-repartition", "from-repartition", "sums-repartition");
    return t;
}

/// A table of user -> region (null value = delete). On an update it forwards the subtraction for
/// the old region before the addition for the new one, as KTable.groupBy().aggregate(adder,
/// subtractor) does.
struct user_region_table : processor<std::string, std::optional<std::string>, std::string, std::int64_t> {
    key_value_store<std::string, std::string>* table = nullptr;
    void init(context_type& ctx) override {
        processor::init(ctx);
        table = &ctx.get_state_store<key_value_store<std::string, std::string>>("user-regions");
    }
    void process(const record<std::string, std::optional<std::string>>& r) override {
        const std::optional<std::string> old = table->get(r.key);
        if (r.value) table->put(r.key, *r.value);
        else table->remove(r.key);
        if (old) context().forward(record<std::string, std::int64_t>{*old, -1, r.timestamp});
        if (r.value) context().forward(record<std::string, std::int64_t>{*r.value, +1, r.timestamp});
    }
};

/// users (user -> region) counted per region with adder and subtractor, through a repartition topic.
inline topology region_count_topology(const std::string& in, const std::string& out) {
    topology t;
    t.add_source<std::string, std::optional<std::string>>("users", {in})
        .add_processor("table", [] { return std::make_unique<user_region_table>(); }, {"users"})
        .add_state_store(stores::key_value_store_builder<std::string, std::string>(
                             stores::in_memory_key_value_store("user-regions")),
                         {"table"})
        .add_sink<std::string, std::int64_t>("to-repartition", "regions-repartition", {"table"})
        .add_source<std::string, std::int64_t>("from-repartition", {"regions-repartition"})
        .add_processor("sum", [] { return std::make_unique<sum_per_key>(); }, {"from-repartition"})
        .add_state_store(stores::key_value_store_builder<std::string, std::int64_t>(
                             stores::in_memory_key_value_store("sums")),
                         {"sum"})
        .add_sink<std::string, std::int64_t>("counts", out, {"sum"});
    make_repartition(t, "to-repartition", "from-repartition", "regions-repartition");
    return t;
}

}  // namespace kstreams::test
