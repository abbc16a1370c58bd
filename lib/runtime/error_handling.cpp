#include "lib/runtime/error_handling.hpp"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>
#include <typeinfo>

namespace kstreams {

std::string exception_type_name(std::exception_ptr error) {
    if (!error) return "unknown";
    try {
        std::rethrow_exception(error);
    } catch (...) {
        const std::type_info* type = abi::__cxa_current_exception_type();
        if (!type) return "unknown";
        int status = 0;
        std::unique_ptr<char, void (*)(void*)> name(abi::__cxa_demangle(type->name(), nullptr, nullptr, &status),
                                                    std::free);
        return status == 0 && name ? std::string(name.get()) : std::string(type->name());
    }
}

dead_letter_record build_dead_letter_record(std::string_view topic, const error_handler_context& ctx,
                                            std::exception_ptr error) {
    dead_letter_record r;
    r.topic = std::string(topic);
    if (ctx.source_raw_key) r.key = std::string(*ctx.source_raw_key);
    if (ctx.source_raw_value) r.value = std::string(*ctx.source_raw_value);
    r.timestamp = ctx.timestamp;
    if (ctx.headers)
        for (const auto& h : *ctx.headers) r.headers.add(h.key, h.value);
    const std::string type = exception_type_name(error);
    std::optional<std::string> message;
    try {
        if (error) std::rethrow_exception(error);
    } catch (const std::exception& e) {
        if (*e.what()) message = e.what();
    } catch (...) {
    }
    r.headers.add("__streams.errors.exception", type);
    r.headers.add("__streams.errors.message", message);
    r.headers.add("__streams.errors.stacktrace", type + (message ? ": " + *message : std::string()));
    r.headers.add("__streams.errors.topic", ctx.topic.empty() ? std::nullopt : std::optional<std::string>(ctx.topic));
    r.headers.add("__streams.errors.partition", std::to_string(ctx.partition));
    r.headers.add("__streams.errors.offset", std::to_string(ctx.offset));
    return r;
}

}  // namespace kstreams

namespace kstreams::detail {

std::string describe(std::exception_ptr error) {
    try {
        if (error) std::rethrow_exception(error);
    } catch (const std::exception& e) {
        return e.what();
    } catch (...) {
    }
    return "an exception of type " + exception_type_name(error);
}

namespace {
/// Kafka's LogAndFail / LogAndContinue handlers (the runtime logs): with a dead-letter topic they
/// write the source record there (KIP-1034).
handler_response builtin(bool resume, const std::string& dlq, const error_handler_context& ctx, std::exception_ptr e) {
    std::vector<dead_letter_record> records;
    if (!dlq.empty()) records.push_back(build_dead_letter_record(dlq, ctx, e));
    return resume ? handler_response::resume(std::move(records)) : handler_response::fail(std::move(records));
}
}  // namespace

error_handlers error_handlers::resolve(const error_handling_config& config, bool log_and_continue_on_deserialization_error,
                                       bool log_and_continue_on_production_error) {
    error_handlers h;
    h.dead_letter_queue_topic = config.dead_letter_queue_topic;
    h.reads_raw_records = !config.dead_letter_queue_topic.empty() || config.deserialization || config.processing ||
                          config.production;
    const std::string dlq = config.dead_letter_queue_topic;
    h.deserialization = config.deserialization
                            ? config.deserialization
                            : deserialization_exception_handler(
                                  [dlq, resume = log_and_continue_on_deserialization_error](const error_handler_context& c,
                                                                                           std::exception_ptr e) {
                                      return builtin(resume, dlq, c, e);
                                  });
    h.processing = config.processing ? config.processing
                                     : processing_exception_handler(
                                           [dlq, resume = config.log_and_continue_on_processing_error](
                                               const error_handler_context& c, std::exception_ptr e) {
                                               return builtin(resume, dlq, c, e);
                                           });
    h.production = config.production
                       ? config.production
                       : production_exception_handler([dlq, resume = log_and_continue_on_production_error](
                                                          const error_handler_context& c, const failed_record&,
                                                          std::exception_ptr e) { return builtin(resume, dlq, c, e); });
    return h;
}

error_handler_context context_of(const raw_record* raw, std::string_view node, task_id task, std::int64_t timestamp) {
    error_handler_context ctx;
    if (raw) {
        ctx.topic = raw->topic;
        ctx.partition = raw->partition;
        ctx.offset = raw->offset;
        ctx.headers = raw->hdrs;
        ctx.source_raw_key = raw->key;
        ctx.source_raw_value = raw->value;
    }
    ctx.processor_node_id = node;
    ctx.task_id = task;
    ctx.timestamp = timestamp;
    return ctx;
}

void answer(const std::function<handler_response()>& handler, const std::string& what, std::string_view setting,
            record_collector& collector, kstreams::metrics& metrics, std::string_view node) {
    handler_response response;
    try {
        response = handler();
    } catch (const std::exception& e) {
        throw streams_error(what + "; fatal user code error in the " + std::string(setting) + ": " + e.what());
    }
    send_dead_letter_records(response, collector, metrics, node);
    if (response.result != handler_result::resume)
        throw streams_error(what + "; the " + std::string(setting) + " is set to fail upon this error");
}

void send_dead_letter_records(const handler_response& response, record_collector& collector, kstreams::metrics& metrics,
                              std::string_view node) {
    for (const auto& r : response.dead_letter_queue_records) {
        if (r.topic.empty()) throw streams_error("processor " + std::string(node) + ": a dead-letter record has no topic");
        collector.send(r.topic, std::nullopt,
                       r.key ? std::optional<std::string_view>(*r.key) : std::nullopt,
                       r.value ? std::optional<std::string_view>(*r.value) : std::nullopt, r.timestamp, r.headers, node);
        ++metrics.counter(dead_letter_queue_records_metric);
    }
}

}  // namespace kstreams::detail
