// Name allocation and bookkeeping of the DSL's logical graph.
#include <cstdio>

#include <kstreams/dsl/detail/graph.hpp>
#include <kstreams/state/stores.hpp>

namespace kstreams::dsl_detail {

namespace {
std::string ten_digits(int i) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "%010d", i);
    return buf;
}
}  // namespace

std::string builder_state::new_processor_name(std::string_view prefix) {
    return std::string(prefix) + ten_digits(index_++);
}

std::string builder_state::new_store_name(std::string_view prefix) {
    return std::string(prefix) + "STATE-STORE-" + ten_digits(index_++);
}

std::size_t builder_state::add(graph_node n) {
    nodes_.push_back(std::move(n));
    return nodes_.size() - 1;
}

void builder_state::enable_send_old_values(std::size_t table_node) {
    std::optional<std::size_t> cur = table_node;
    while (cur) {
        table_info& t = *nodes_.at(*cur).table;
        t.send_old_values = true;
        // A join's old values are computed from both tables' (Kafka's KTableKTableJoinMerger
        // asks both, materialized or not).
        if (!t.join_parents.empty()) {
            for (std::size_t p : t.join_parents) enable_send_old_values(p);
            return;
        }
        if (t.has_own_store) return;
        if (!t.parent_table) {
            // A table source: it can only know the old value by keeping the table.
            t.materialized = true;
            return;
        }
        cur = t.parent_table;
    }
}

bool builder_state::send_old_values_if_materialized(std::size_t table_node) {
    table_info& t = *nodes_.at(table_node).table;
    if (!t.join_parents.empty()) {
        enable_send_old_values(table_node);
        return true;
    }
    const bool can = t.materialized || (t.parent_table && send_old_values_if_materialized(*t.parent_table));
    if (can) t.send_old_values = true;
    return can;
}

std::shared_ptr<const key_value_bytes_store_supplier> builder_state::default_store_supplier(const std::string& name) const {
    return stores::in_memory_key_value_store(name);
}

repartition_spec new_stream_repartition(builder_state& b, const std::string& topic_prefix) {
    repartition_spec s;
    const std::string suffix(names::repartition_suffix);
    s.topic = topic_prefix.size() >= suffix.size() && topic_prefix.ends_with(suffix) ? topic_prefix : topic_prefix + suffix;
    // Kafka Streams burns three indexes here whatever the names end up being.
    std::string sink = b.new_processor_name(names::sink);
    std::string filter = b.new_processor_name(names::filter);
    std::string source = b.new_processor_name(names::source);
    // Generated prefixes (KSTREAM...-<10 digits>) keep generated node names; others derive them.
    const bool generated = topic_prefix.starts_with("KSTREAM") && topic_prefix.size() > 11 &&
                           topic_prefix[topic_prefix.size() - 11] == '-' &&
                           topic_prefix.find_first_not_of("0123456789", topic_prefix.size() - 10) == std::string::npos;
    if (generated) {
        s.sink_name = std::move(sink);
        s.filter_name = std::move(filter);
        s.source_name = std::move(source);
    } else {
        s.sink_name = s.topic + "-sink";
        s.filter_name = s.topic + "-filter";
        s.source_name = s.topic + "-source";
    }
    return s;
}

}  // namespace kstreams::dsl_detail
