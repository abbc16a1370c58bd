#include "lib/state/record_cache.hpp"

#include <chrono>
#include <iterator>
#include <stdexcept>

namespace kstreams::state {

record_cache::named_cache& record_cache::add(std::string name, flush_callback on_flush) {
    named_cache& ns = namespaces_.emplace_back();
    ns.name_ = std::move(name);
    ns.on_flush_ = std::move(on_flush);
    return ns;
}

record_cache::named_cache::slot* record_cache::named_cache::find(std::string_view key) {
    if (found_ && found_->first == key) return found_;
    slot* s = entries_.find(key);
    if (s) found_ = s;
    return s;
}

record_cache::named_cache::slot& record_cache::named_cache::insert(std::string_view key) {
    slot& s = entries_.emplace(key);
    if (keeps_order_) ordered_.insert(&s.first);
    found_ = &s;
    return s;
}

void record_cache::named_cache::erase(slot& s) {
    if (found_ == &s) found_ = nullptr;
    if (keeps_order_) ordered_.erase(&s.first);
    entries_.erase(s);
}

const std::set<const std::string*, record_cache::named_cache::key_order>& record_cache::named_cache::ordered() {
    if (!keeps_order_) {
        keeps_order_ = true;
        entries_.for_each([this](const slot& s) { ordered_.insert(&s.first); });
    }
    return ordered_;
}

void record_cache::remove(named_cache& ns) {
    shrink(ns, *ns.bytes_);
    for (auto it = namespaces_.begin(); it != namespaces_.end(); ++it)
        if (&*it == &ns) {
            namespaces_.erase(it);
            return;
        }
}

const std::optional<std::string>* record_cache::get(named_cache& ns, std::string_view key) {
    auto* it = ns.find(key);
    if (!it) {
        ++ns.misses_;
        return nullptr;
    }
    ++ns.hits_;
    if (ns.hit_ratio_) [[unlikely]] {
        const auto now = std::chrono::steady_clock::now().time_since_epoch();
        ns.hit_ratio_->record(ns.hits_ * 1'000'000 / (ns.hits_ + ns.misses_),
                              std::chrono::duration_cast<std::chrono::nanoseconds>(now).count());
    }
    ns.lru_.splice(ns.lru_.begin(), ns.lru_, it->second.lru);
    return &it->second.value;
}

void record_cache::put(named_cache& ns, std::string_view key, std::optional<std::string_view> value, bool dirty,
                       const record_context& writer, const stored_metadata& writer_metadata) {
    auto* it = ns.find(key);
    if (!it) {
        it = &ns.insert(key);
        ns.lru_.push_front(it);
        it->second.lru = ns.lru_.begin();
    } else {
        shrink(ns, it->second.bytes);
        ns.lru_.splice(ns.lru_.begin(), ns.lru_, it->second.lru);
        // A clean write must not hide a pending dirty one (a read after a write caches nothing new).
        if (!dirty && it->second.dirty)
            throw std::logic_error("record cache " + ns.name_ + ": a clean entry would overwrite a dirty one");
    }
    auto& e = it->second;
    if (value) {
        if (e.value) e.value->assign(*value);
        else e.value.emplace(*value);
    } else {
        e.value.reset();
    }
    e.timestamp = writer.timestamp;
    e.metadata = writer_metadata;
    if (writer.hdrs) e.hdrs = *writer.hdrs;
    else if (!e.hdrs.empty()) e.hdrs = {};
    if (dirty) {
        // Re-dirtying moves the key to the end: entries flush in the order of their last write.
        if (e.dirty) {
            ns.dirty_.splice(ns.dirty_.end(), ns.dirty_, e.dirty_pos);
        } else if (!ns.spare_.empty()) {
            ns.dirty_.splice(ns.dirty_.end(), ns.spare_, ns.spare_.begin());
            ns.dirty_.back() = it;
        } else {
            ns.dirty_.push_back(it);
        }
        e.dirty_pos = std::prev(ns.dirty_.end());
        e.dirty = true;
    }
    e.bytes = entry_bytes(key.size(), e.value ? e.value->size() : 0);
    grow(ns, e.bytes);
    while (size_bytes_ > max_bytes_ && !ns.entries_.empty()) evict_from(ns);
}

void record_cache::evict_from(named_cache& ns) {
    named_cache::slot* it = ns.lru_.back();
    ns.lru_.pop_back();
    shrink(ns, it->second.bytes);
    ++evictions_;
    std::optional<dirty_entry> evicted;
    if (it->second.dirty) {
        ns.spare_.splice(ns.spare_.end(), ns.dirty_, it->second.dirty_pos);
        evicted = dirty_entry{it->first, std::move(it->second.value), it->second.timestamp,
                              std::move(it->second.hdrs), it->second.metadata};
    }
    ns.erase(*it);
    if (evicted) flush(ns, std::move(evicted));
}

void record_cache::flush(named_cache& ns) { flush(ns, std::nullopt); }

void record_cache::discard(std::string_view prefix) {
    for (named_cache& ns : namespaces_) {
        if (!ns.name_.starts_with(prefix)) continue;
        shrink(ns, *ns.bytes_);
        ns.dirty_.clear();
        ns.lru_.clear();
        ns.entries_.clear();
        ns.ordered_.clear();
        ns.forget_found();
    }
}

void record_cache::flush(named_cache& ns, std::optional<dirty_entry> evicted) {
    if (ns.dirty_.empty() && !evicted) return;
    ++flushes_;
    std::vector<dirty_entry> entries;
    entries.reserve(ns.dirty_.size() + 1);
    if (evicted) entries.push_back(std::move(*evicted));
    std::vector<named_cache::slot*> deleted;
    for (named_cache::slot* s : ns.dirty_) {
        auto& e = s->second;
        entries.push_back({s->first, e.value, e.timestamp, e.hdrs, e.metadata});
        e.dirty = false;
        if (!e.value) deleted.push_back(s);
    }
    // Cleared before the callback runs: it forwards downstream, which may write here again.
    ns.spare_.splice(ns.spare_.end(), ns.dirty_);
    for (named_cache::slot* s : deleted) {
        shrink(ns, s->second.bytes);
        ns.lru_.erase(s->second.lru);
        ns.erase(*s);
    }
    ns.on_flush_(entries);
}

std::vector<std::pair<std::string, std::optional<std::string>>> record_cache::snapshot(
    named_cache& ns, const std::optional<std::string>& from, const std::optional<std::string>& to) const {
    std::vector<std::pair<std::string, std::optional<std::string>>> rows;
    if (from && to && *from > *to) return rows;
    const auto& keys = ns.ordered();
    auto first = from ? keys.lower_bound(std::string_view(*from)) : keys.begin();
    auto last = to ? keys.upper_bound(std::string_view(*to)) : keys.end();
    for (auto it = first; it != last; ++it) rows.emplace_back(**it, ns.find(**it)->second.value);
    return rows;
}

std::vector<std::pair<std::string, std::optional<std::string>>> record_cache::snapshot_prefix(
    named_cache& ns, std::string_view prefix) const {
    std::vector<std::pair<std::string, std::optional<std::string>>> rows;
    const auto& keys = ns.ordered();
    for (auto it = keys.lower_bound(prefix); it != keys.end() && (*it)->starts_with(prefix); ++it)
        rows.emplace_back(**it, ns.find(**it)->second.value);
    return rows;
}

}  // namespace kstreams::state
