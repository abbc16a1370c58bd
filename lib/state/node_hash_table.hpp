// A hash table of nodes keyed by byte strings, for the record cache and the RocksDB store's hot
// entries: the nodes are allocated one by one and never move (lists elsewhere point at them), and
// the table is a flat array of (hash, node) slots probed linearly. A lookup reads one slot, then
// the node's key. std::unordered_map reads the bucket's predecessor node, the node's hash code
// (stored after the value, lines away from the key) and then its key: two cache misses more per
// lookup once the nodes are out of the CPU's caches, as 10,000 keys are beside the records
// streaming through.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

namespace kstreams::state {

/// `Node` is a pair whose `first` is the key (a const std::string), `second` default-constructible.
template <class Node>
class node_hash_table {
    struct slot {
        std::size_t hash = 0;
        Node* node = nullptr;
    };

public:
    node_hash_table() = default;
    node_hash_table(const node_hash_table&) = delete;
    node_hash_table& operator=(const node_hash_table&) = delete;
    ~node_hash_table() { clear(); }

    std::size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }

    /// The node of `key`, or null.
    Node* find(std::string_view key) const {
        if (size_ == 0) return nullptr;
        const std::size_t h = hash(key);
        for (std::size_t i = h & mask(); slots_[i].node; i = (i + 1) & mask())
            if (slots_[i].hash == h && slots_[i].node->first == key) return slots_[i].node;
        return nullptr;
    }

    /// A new node for `key`, which must not be here.
    Node& emplace(std::string_view key) {
        if ((size_ + 1) * 2 > slots_.size()) grow();
        const std::size_t h = hash(key);
        auto node = std::make_unique<Node>(std::piecewise_construct, std::forward_as_tuple(key), std::forward_as_tuple());
        std::size_t i = h & mask();
        while (slots_[i].node) i = (i + 1) & mask();
        slots_[i] = {h, node.get()};
        ++size_;
        return *node.release();
    }

    /// Removes and frees `n`, a node of this table.
    void erase(Node& n) {
        const std::size_t h = hash(n.first);
        std::size_t i = h & mask();
        while (slots_[i].node != &n) i = (i + 1) & mask();
        delete slots_[i].node;
        --size_;
        // Backward shift: later slots of the probe run move up unless their home is after the gap.
        for (std::size_t j = i;;) {
            j = (j + 1) & mask();
            if (!slots_[j].node) break;
            const std::size_t home = slots_[j].hash & mask();
            const bool stays = i <= j ? (i < home && home <= j) : (i < home || home <= j);
            if (stays) continue;
            slots_[i] = slots_[j];
            i = j;
        }
        slots_[i] = {};
    }

    void clear() {
        for (slot& s : slots_) {
            delete s.node;
            s = {};
        }
        size_ = 0;
    }

    /// Calls fn(node) for every node, in no particular order; fn must not add or remove nodes.
    template <class Fn>
    void for_each(Fn&& fn) const {
        for (const slot& s : slots_)
            if (s.node) fn(*s.node);
    }

private:
    static std::size_t hash(std::string_view key) { return std::hash<std::string_view>{}(key); }
    std::size_t mask() const { return slots_.size() - 1; }

    void grow() {
        std::vector<slot> old(slots_.empty() ? 16 : slots_.size() * 2);
        old.swap(slots_);
        for (const slot& s : old) {
            if (!s.node) continue;
            std::size_t i = s.hash & mask();
            while (slots_[i].node) i = (i + 1) & mask();
            slots_[i] = s;
        }
    }

    std::vector<slot> slots_;  ///< a power of two long, at most half full
    std::size_t size_ = 0;
};

}  // namespace kstreams::state
