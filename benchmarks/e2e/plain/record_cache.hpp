// Kafka Streams' record cache as the loop keeps it by hand (one per store and task): updates
// coalesce per key; dirty entries are written (to the store, its changelog and downstream) in the
// order of their last update at each commit, or all of them when the least recently used entry
// must go while dirty to keep the cache under its bound. A read makes an entry the most recently
// used. Value has bytes(): its size as kstreams estimates it beside the key (plus 64 per entry).
#pragma once

#include <cstddef>
#include <functional>
#include <iterator>
#include <list>
#include <string>
#include <string_view>
#include <unordered_map>

namespace plain {

template <class Value>
class record_cache {
    struct entry;
    struct key_hash {
        using is_transparent = void;
        std::size_t operator()(std::string_view k) const noexcept { return std::hash<std::string_view>{}(k); }
    };
    using map = std::unordered_map<std::string, entry, key_hash, std::equal_to<>>;
    using order = std::list<const std::string*>;
    struct entry {
        Value value;
        std::size_t bytes = 0;
        bool dirty = false;
        typename order::iterator lru{}, dirty_pos{};
    };

public:
    using handle = typename map::iterator;

    explicit record_cache(std::size_t max_bytes) : max_bytes_(max_bytes) {}

    /// The entry of `key` (a hit becomes the most recently used), or none().
    handle find(std::string_view key) {
        auto it = map_.find(key);
        if (it != map_.end()) lru_.splice(lru_.begin(), lru_, it->second.lru);
        return it;
    }
    handle none() { return map_.end(); }
    /// A clean entry for `key`, which is not here.
    handle add(std::string_view key, Value v) {
        auto it = map_.emplace(std::string(key), entry{std::move(v)}).first;
        lru_.push_front(&it->first);
        it->second.lru = lru_.begin();
        it->second.bytes = key.size() + it->second.value.bytes() + 64;
        bytes_ += it->second.bytes;
        return it;
    }
    Value& value(handle h) { return h->second.value; }
    /// After an update of the entry's value: it is dirty, last in the flush order.
    void updated(handle h) {
        entry& e = h->second;
        const std::size_t now = h->first.size() + e.value.bytes() + 64;
        bytes_ += now - e.bytes;
        e.bytes = now;
        if (e.dirty) {
            dirty_.splice(dirty_.end(), dirty_, e.dirty_pos);
        } else if (!spare_.empty()) {
            dirty_.splice(dirty_.end(), spare_, spare_.begin());
            dirty_.back() = &h->first;
        } else {
            dirty_.push_back(&h->first);
        }
        e.dirty_pos = std::prev(dirty_.end());
        e.dirty = true;
    }
    /// Evicts least recently used entries while over the bound; `flush_all()` first if one is dirty.
    template <class FlushAll>
    void bound(FlushAll flush_all) {
        while (bytes_ > max_bytes_ && !lru_.empty()) {
            auto it = map_.find(*lru_.back());
            if (it->second.dirty) flush_all();
            lru_.pop_back();
            bytes_ -= it->second.bytes;
            map_.erase(it);
        }
    }
    /// Calls write(key, value) for every dirty entry in the order of its last update; all clean after.
    template <class Write>
    void flush(Write write) {
        for (const std::string* key : dirty_) {
            entry& e = map_.find(*key)->second;
            write(std::string_view(*key), e.value);
            e.dirty = false;
        }
        spare_.splice(spare_.end(), dirty_);
    }
    bool has_dirty() const { return !dirty_.empty(); }

private:
    std::size_t max_bytes_, bytes_ = 0;
    map map_;
    order lru_, dirty_, spare_;
};

}  // namespace plain
