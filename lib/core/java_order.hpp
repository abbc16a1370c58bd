// Iteration orders of the Java collections Kafka Streams builds its TopologyDescription from, so
// describe() prints byte for byte what Kafka Streams prints. Kafka's text depends on them:
// - store and topic lists are java.util.HashSet (order = hash bucket, then insertion);
// - nodes are connected while walking a java.util.HashMap, and successors/predecessors go into a
//   java.util.TreeSet whose comparator reads sub-tree sizes that still change afterwards, so the
//   printed order is the shape of a red-black tree built with the sizes of the moment.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace kstreams::detail::java {

/// The UTF-16 code units of a UTF-8 string (invalid bytes map to U+FFFD, as Java's decoder does).
std::u16string to_utf16(std::string_view utf8);

/// java.lang.String.hashCode of the same text.
std::int32_t string_hash(std::string_view utf8);

/// java.lang.String.compareTo: negative, zero or positive.
int compare(std::string_view a, std::string_view b);

/// The order in which a java.util.HashSet<String> filled with `items` (in this order) iterates.
/// `from_collection`: built by `new HashSet<>(collection)` rather than by successive add() calls
/// (their table sizes differ only above 12 elements).
std::vector<std::string> hash_set_order(const std::vector<std::string>& items, bool from_collection = false);

/// A java.util.TreeSet of small integers (node indices) under a comparator that may change its
/// mind after insertion: insert() descends and rebalances exactly as java.util.TreeMap.put does,
/// so in_order() is what iterating the Java TreeSet yields.
class tree_set {
public:
    using comparator = std::function<int(std::size_t, std::size_t)>;
    explicit tree_set(comparator cmp) : cmp_(std::move(cmp)) {}

    void insert(std::size_t value);
    std::vector<std::size_t> in_order() const;
    const std::vector<std::size_t>& values() const { return values_; }  ///< insertion order
    bool empty() const { return nodes_.empty(); }

private:
    static constexpr int nil = -1;
    struct entry {
        std::size_t value;
        int left = nil, right = nil, parent = nil;
        bool black = true;
    };
    bool black(int e) const { return e == nil || nodes_[e].black; }
    int parent_of(int e) const { return e == nil ? nil : nodes_[e].parent; }
    int left_of(int e) const { return e == nil ? nil : nodes_[e].left; }
    int right_of(int e) const { return e == nil ? nil : nodes_[e].right; }
    void set_black(int e, bool b) {
        if (e != nil) nodes_[e].black = b;
    }
    void rotate_left(int p);
    void rotate_right(int p);
    void fix_after_insertion(int x);

    comparator cmp_;
    std::vector<entry> nodes_;
    std::vector<std::size_t> values_;
    int root_ = nil;
};

}  // namespace kstreams::detail::java
