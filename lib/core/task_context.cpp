// task_context: what is not a runner's to implement.
#include <kstreams/context_info.hpp>
#include <kstreams/detail/task_context.hpp>

#include <charconv>

#include <kstreams/detail/internal_configs.hpp>
#include <kstreams/error.hpp>

namespace kstreams::detail {

void task_context::slot_type_mismatch(std::string_view key) {
    throw topology_error("task slot " + std::string(key) + " asked for as two different types");
}

std::int64_t internal_config::milliseconds(const task_context& ctx, std::string_view key, std::int64_t fallback) {
    const auto value = ctx.app_config(key);
    if (!value) return fallback;
    std::int64_t ms = 0;
    const auto [end, ec] = std::from_chars(value->data(), value->data() + value->size(), ms);
    if (ec != std::errc{} || end != value->data() + value->size() || ms < 0)
        throw topology_error("setting " + std::string(key) + "=" + std::string(*value) +
                             " is not a number of milliseconds");
    return ms;
}

}  // namespace kstreams::detail

namespace kstreams {

const detail::app_config_map& detail::task_context::app_configs() const {
    static const app_config_map none;
    return none;
}

std::map<std::string, std::string> context_info::app_configs_with_prefix(std::string_view prefix) const {
    std::map<std::string, std::string> out;
    const auto& all = app_configs();
    for (auto it = all.lower_bound(prefix); it != all.end() && it->first.starts_with(prefix); ++it)
        out.emplace(it->first.substr(prefix.size()), it->second);
    return out;
}

}  // namespace kstreams
