// The runtime's side of the error handlers (error_handlers.hpp): the built-ins resolved, and how a
// task applies an answer (dead-letter records sent through its collector, counters, logs).
#pragma once

#include <exception>
#include <string>
#include <string_view>

#include <kstreams/detail/node.hpp>
#include <kstreams/detail/task_context.hpp>
#include <kstreams/error.hpp>
#include <kstreams/error_handlers.hpp>
#include <kstreams/metrics.hpp>

namespace kstreams::detail {

/// The handlers of a runner, with Kafka's built-ins filled in (never empty).
struct error_handlers {
    deserialization_exception_handler deserialization;
    processing_exception_handler processing;
    production_exception_handler production;
    std::string dead_letter_queue_topic;
    /// A handler may read the source record's raw key and value (a dead-letter queue or a
    /// handler of the user's): cache entries then keep their writer's.
    bool reads_raw_records = false;

    /// `log_and_continue_on_deserialization_error` is the older flag of streams_config.
    static error_handlers resolve(const error_handling_config& config, bool log_and_continue_on_deserialization_error,
                                  bool log_and_continue_on_production_error);
};

/// The message of an exception (what(), or a placeholder).
std::string describe(std::exception_ptr error);

/// The context of an error at `node` while the source record `raw` (null in a punctuation) is
/// processed.
error_handler_context context_of(const raw_record* raw, std::string_view node, task_id task, std::int64_t timestamp);

/// Asks `handler` (its own exception fails the task), sends the dead-letter records of its answer
/// and returns to go on; `fail` throws streams_error(`what` and why, naming `setting`).
void answer(const std::function<handler_response()>& handler, const std::string& what, std::string_view setting,
            record_collector& collector, kstreams::metrics& metrics, std::string_view node);

/// Sends the dead-letter records of an answer through `collector` (counted in
/// `dead-letter-queue-records`); `node` names the sender in errors.
void send_dead_letter_records(const handler_response& response, record_collector& collector, kstreams::metrics& metrics,
                              std::string_view node);

inline constexpr std::string_view dead_letter_queue_records_metric = "dead-letter-queue-records";
inline constexpr std::string_view dropped_processing_error_metric = "dropped-records.processing-error";

}  // namespace kstreams::detail
