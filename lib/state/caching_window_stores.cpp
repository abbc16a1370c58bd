#include "lib/state/caching_window_stores.hpp"

#include <algorithm>

#include <kstreams/serde.hpp>

#include "lib/state/key_scan_bound.hpp"
#include "lib/state/segmented_session_store.hpp"
#include "lib/state/window_rows.hpp"

namespace kstreams::state {

namespace {

constexpr std::size_t window_suffix = 8;    // key ‖ start
constexpr std::size_t session_suffix = 16;  // key ‖ end ‖ start

std::string window_cache_key(std::string_view key, std::int64_t start) {
    std::string k;
    k.reserve(key.size() + window_suffix);
    k.append(key);
    detail::put_big_endian(start, k);
    return k;
}

std::int64_t time_at(std::string_view k, std::size_t from_end) {
    return detail::get_big_endian<std::int64_t>(k.substr(k.size() - from_end, 8));
}

bool in_key_range(std::string_view plain, const std::optional<std::string>& from, const std::optional<std::string>& to) {
    return (!from || plain >= std::string_view(*from)) && (!to || plain <= std::string_view(*to));
}

/// The cached entries that may belong to a scan of [key_from, key_to] whose times (the first
/// 8 suffix bytes) lie in [time_from, time_to].
std::vector<std::pair<std::string, std::optional<std::string>>> cached_candidates(
    cache_binding& cache, const std::optional<std::string>& key_from, const std::optional<std::string>& key_to,
    std::int64_t time_from, std::int64_t time_to, std::size_t suffix) {
    std::optional<std::string> hi;
    if (key_to) hi = scan_upper_bound(*key_to, key_from, max_time_suffix(time_from, time_to, suffix - 8));
    return cache.cache().snapshot(cache.ns(), key_from, hi);
}

}  // namespace

// ---- window ----

void caching_window_store::init(store_context& ctx) {
    inner_->init(ctx);
    cache_.attach(ctx, name(), [this](std::vector<record_cache::dirty_entry>& entries) {
        cache_.write_down(
            entries,
            [this](const record_cache::dirty_entry& e) {
                return inner_->fetch(std::string_view(e.key).substr(0, e.key.size() - window_suffix),
                                     time_at(e.key, window_suffix));
            },
            [this](const record_cache::dirty_entry& e) {
                std::optional<std::string_view> v;
                if (e.value) v = *e.value;
                inner_->put(std::string_view(e.key).substr(0, e.key.size() - window_suffix), v,
                            time_at(e.key, window_suffix));
            });
    });
}

void caching_window_store::put(std::string_view key, std::optional<std::string_view> value,
                               std::int64_t window_start) {
    if (!cache_.active()) return inner_->put(key, value, window_start);
    max_cached_ = std::max(max_cached_, window_start);
    cache_.cache().put(cache_.ns(), window_cache_key(key, window_start), value, true,
                       cache_.context().current_record_context(),
                       cache_.writer_metadata());
}

std::optional<std::string> caching_window_store::fetch(std::string_view key, std::int64_t window_start) {
    if (cache_.active())
        if (const auto* cached = cache_.cache().get(cache_.ns(), window_cache_key(key, window_start))) return *cached;
    return inner_->fetch(key, window_start);
}

std::unique_ptr<bytes_window_iterator> caching_window_store::fetch(std::string_view key, std::int64_t time_from,
                                                                   std::int64_t time_to, bool backward) {
    std::optional<std::string> k{std::string(key)};
    return merge(inner_->fetch(key, time_from, time_to, backward), k, k, time_from, time_to, backward);
}

std::unique_ptr<bytes_window_iterator> caching_window_store::fetch_range(const std::optional<std::string>& key_from,
                                                                         const std::optional<std::string>& key_to,
                                                                         std::int64_t time_from, std::int64_t time_to,
                                                                         bool backward) {
    return merge(inner_->fetch_range(key_from, key_to, time_from, time_to, backward), key_from, key_to, time_from,
                 time_to, backward);
}

std::unique_ptr<bytes_window_iterator> caching_window_store::merge(std::unique_ptr<bytes_window_iterator> store,
                                                                   const std::optional<std::string>& key_from,
                                                                   const std::optional<std::string>& key_to,
                                                                   std::int64_t time_from, std::int64_t time_to,
                                                                   bool backward) {
    if (!cache_.active() || time_from > time_to || (key_from && key_to && *key_from > *key_to)) return store;
    std::vector<window_row> rows;
    const std::int64_t size = inner_->window_size();
    for (auto& [k, v] : cached_candidates(cache_, key_from, key_to, time_from, std::min(time_to, max_cached_),
                                          window_suffix)) {
        if (k.size() < window_suffix) continue;
        const std::string_view plain = std::string_view(k).substr(0, k.size() - window_suffix);
        const std::int64_t start = time_at(k, window_suffix);
        if (!in_key_range(plain, key_from, key_to) || start < time_from || start > time_to) continue;
        rows.push_back({std::string(plain), {start, window_end(start, size)}, std::move(v)});
    }
    if (rows.empty()) return store;
    auto before = [this, backward](std::string_view ka, kstreams::window a, std::string_view kb, kstreams::window b) {
        return inner_->scan_before(ka, a.start, kb, b.start, backward);
    };
    std::stable_sort(rows.begin(), rows.end(),
                     [&](const window_row& a, const window_row& b) { return before(a.key, a.window, b.key, b.window); });
    return std::make_unique<merged_window_iterator>(std::move(rows), std::move(store), before);
}

// ---- session ----

void caching_session_store::init(store_context& ctx) {
    inner_->init(ctx);
    auto plain = [](const std::string& k) { return std::string_view(k).substr(0, k.size() - session_suffix); };
    cache_.attach(ctx, name(), [this, plain](std::vector<record_cache::dirty_entry>& entries) {
        cache_.write_down(
            entries,
            [this, plain](const record_cache::dirty_entry& e) {
                return inner_->fetch_session(plain(e.key), time_at(e.key, 8), time_at(e.key, session_suffix));
            },
            [this, plain](const record_cache::dirty_entry& e) {
                std::optional<std::string_view> v;
                if (e.value) v = *e.value;
                inner_->put(plain(e.key), {time_at(e.key, 8), time_at(e.key, session_suffix)}, v);
            });
    });
}

void caching_session_store::put(std::string_view key, kstreams::window session,
                                std::optional<std::string_view> value) {
    if (!cache_.active()) return inner_->put(key, session, value);
    max_cached_ = std::max(max_cached_, session.end);
    cache_.cache().put(cache_.ns(), segmented_session_store::session_key(key, session.start, session.end), value,
                       true, cache_.context().current_record_context(),
                       cache_.writer_metadata());
}

std::optional<std::string> caching_session_store::fetch_session(std::string_view key, std::int64_t start,
                                                                 std::int64_t end) {
    if (cache_.active())
        if (const auto* cached =
                cache_.cache().get(cache_.ns(), segmented_session_store::session_key(key, start, end)))
            return *cached;
    return inner_->fetch_session(key, start, end);
}

std::unique_ptr<bytes_window_iterator> caching_session_store::find_sessions(const std::optional<std::string>& key_from,
                                                                            const std::optional<std::string>& key_to,
                                                                            std::int64_t earliest_end,
                                                                            std::int64_t latest_start, bool backward) {
    auto store = inner_->find_sessions(key_from, key_to, earliest_end, latest_start, backward);
    if (!cache_.active() || (key_from && key_to && *key_from > *key_to)) return store;
    std::vector<window_row> rows;
    for (auto& [k, v] :
         cached_candidates(cache_, key_from, key_to, earliest_end, max_cached_, session_suffix)) {
        if (k.size() < session_suffix) continue;
        const std::string_view plain = std::string_view(k).substr(0, k.size() - session_suffix);
        const kstreams::window w{time_at(k, 8), time_at(k, session_suffix)};
        if (!in_key_range(plain, key_from, key_to) || w.end < earliest_end || w.start > latest_start) continue;
        rows.push_back({std::string(plain), w, std::move(v)});
    }
    if (rows.empty()) return store;
    auto before = [this, backward](std::string_view ka, kstreams::window a, std::string_view kb, kstreams::window b) {
        return inner_->scan_before(ka, a, kb, b, backward);
    };
    std::stable_sort(rows.begin(), rows.end(),
                     [&](const window_row& a, const window_row& b) { return before(a.key, a.window, b.key, b.window); });
    return std::make_unique<merged_window_iterator>(std::move(rows), std::move(store), before);
}

}  // namespace kstreams::state
