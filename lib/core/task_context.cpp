// task_context: what is not a runner's to implement.
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
