#include "lib/state/cache_binding.hpp"

#include "lib/state/store_counters.hpp"
#include "lib/state/store_resources.hpp"

namespace kstreams::state {

cache_binding::~cache_binding() {
    if (ns_ && cache_) cache_->remove(*ns_);
}

void cache_binding::attach(store_context& ctx, const std::string& store_name, record_cache::flush_callback on_flush) {
    ctx_ = &ctx;
    hooks_ = dynamic_cast<record_metadata_hooks*>(&ctx);
    auto* res = ctx.resources();
    if (!res || !res->cache || res->cache->max_bytes() == 0) return;
    cache_ = res->cache;
    ns_ = &cache_->add(detail::cache_namespace(ctx.task_id(), store_name), std::move(on_flush));
    if (res->metrics && res->time_store_operations) {
        ns_->record_hit_ratio_into(*res->metrics, std::string(cache_hit_ratio_prefix) + store_name + ".");
        ns_->count_bytes_into(res->metrics->counter(std::string(cache_bytes_prefix) + store_name));
    }
}

bool cache_binding::set_listener(bytes_flush_listener listener, bool send_old_values) {
    listener_ = std::move(listener);
    send_old_values_ = send_old_values;
    return active();
}

void cache_binding::close(state_store& inner) {
    if (active() && inner.is_open()) {
        try {
            cache_->flush(*ns_);
        } catch (...) {
            cache_->remove(*ns_);
            ns_ = nullptr;
            inner.close();
            throw;
        }
    }
    if (ns_) cache_->remove(*ns_);
    ns_ = nullptr;
    inner.close();
}

void cache_binding::write_down(
    std::vector<record_cache::dirty_entry>& entries,
    const std::function<std::optional<std::string>(const record_cache::dirty_entry&)>& read_old,
    const std::function<void(const record_cache::dirty_entry&)>& write) {
    // Each entry is written down and forwarded in the context of the record that wrote it.
    struct restore_context {
        store_context& ctx;
        record_metadata_hooks* hooks;
        record_context saved = ctx.current_record_context();
        stored_metadata saved_metadata = hooks ? hooks->current_stored_metadata() : stored_metadata{};
        ~restore_context() {
            ctx.set_current_record_context(saved);
            if (hooks) hooks->set_stored_metadata(saved_metadata);
        }
    } restore{*ctx_, hooks_};
    for (auto& e : entries) {
        std::optional<std::string> old;
        if (listener_ && (!e.value || send_old_values_)) old = read_old(e);
        // Neither stored nor cached before: nothing to write and nothing to forward (as Kafka).
        if (listener_ && !e.value && !old) continue;
        ctx_->set_current_record_context({e.timestamp, &e.hdrs});
        if (hooks_) hooks_->set_stored_metadata(e.metadata);
        write(e);
        if (listener_) {
            std::optional<std::string_view> nv, ov;
            if (e.value) nv = *e.value;
            if (send_old_values_ && old) ov = *old;
            listener_(e.key, nv, ov, e.timestamp, e.hdrs);
        }
    }
}

}  // namespace kstreams::state
