// Record-level error handlers, as Kafka Streams 4.4's: deserialization
// (`deserialization.exception.handler`), processing exceptions from user code
// (`processing.exception.handler`, KIP-1033) and production (`production.exception.handler`), each
// answering with KIP-1034's response (resume, fail, or for production retry, plus records for the
// dead-letter queue `errors.dead.letter.queue.topic.name`).
#pragma once

#include <cstdint>
#include <exception>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <kstreams/record.hpp>
#include <kstreams/task_id.hpp>

namespace kstreams {

/// What a handler is told about where the error happened (Kafka's ErrorHandlerContext): the source
/// record being processed by the task (topic, partition, offset, headers, timestamp and its raw
/// key and value bytes as the task read them), the processor node and the task. Views are valid
/// during the call only.
struct error_handler_context {
    std::string_view topic;  ///< empty when no source record is known (a punctuation, a delivery report)
    std::int32_t partition = -1;
    std::int64_t offset = -1;
    const kstreams::headers* headers = nullptr;
    /// The source node (deserialization), the processor that threw (processing), the sink (production).
    std::string_view processor_node_id;
    kstreams::task_id task_id{};
    std::int64_t timestamp = -1;
    std::optional<std::string_view> source_raw_key;
    std::optional<std::string_view> source_raw_value;
};

/// A record for the dead-letter queue (Kafka's ProducerRecord<byte[], byte[]>); the partition is
/// chosen by the producer (murmur2 of the key).
struct dead_letter_record {
    std::string topic;
    std::optional<std::string> key;
    std::optional<std::string> value;
    std::int64_t timestamp = -1;
    kstreams::headers headers;
};

enum class handler_result { resume, fail, retry };

/// A handler's answer (KIP-1034's Response): go on or fail, and records for the dead-letter queue,
/// written before the task goes on or fails. `retry` is for production errors only (as Kafka's).
struct handler_response {
    handler_result result = handler_result::fail;
    std::vector<dead_letter_record> dead_letter_queue_records;

    static handler_response resume(std::vector<dead_letter_record> dlq = {}) {
        return {handler_result::resume, std::move(dlq)};
    }
    static handler_response fail(std::vector<dead_letter_record> dlq = {}) { return {handler_result::fail, std::move(dlq)}; }
    static handler_response retry() { return {handler_result::retry, {}}; }
};

/// The record a sink could not write (production errors).
struct failed_record {
    std::string_view topic;
    std::optional<std::int32_t> partition;
    std::optional<std::string_view> key;
    std::optional<std::string_view> value;
    std::int64_t timestamp = -1;
};

/// A source could not deserialize the record of `ctx` (its raw bytes in ctx.source_raw_*).
using deserialization_exception_handler =
    std::function<handler_response(const error_handler_context& ctx, std::exception_ptr error)>;
/// A processor threw while processing the record of `ctx` (KIP-1033); resume drops the record at
/// that processor, the others downstream of its parent still get it.
using processing_exception_handler =
    std::function<handler_response(const error_handler_context& ctx, std::exception_ptr error)>;
/// `record` could not be written to Kafka.
using production_exception_handler =
    std::function<handler_response(const error_handler_context& ctx, const failed_record& record, std::exception_ptr error)>;

/// The handlers of an application (or of the test driver). An empty handler is Kafka's built-in:
/// log-and-fail unless the `log_and_continue_*` flag says log-and-continue; with a dead-letter
/// topic the built-ins write a dead-letter record for each error (build_dead_letter_record).
struct error_handling_config {
    deserialization_exception_handler deserialization;
    processing_exception_handler processing;
    /// processing.exception.handler=LogAndContinueProcessingExceptionHandler
    bool log_and_continue_on_processing_error = false;
    production_exception_handler production;
    /// errors.dead.letter.queue.topic.name; empty = none.
    std::string dead_letter_queue_topic;
};

/// Kafka 4.4's dead-letter record (ExceptionHandlerUtils.buildDeadLetterQueueRecord): to `topic`,
/// the source record's raw key and value and timestamp, its headers, then the headers
/// `__streams.errors.exception` (the exception's type name), `__streams.errors.message` (what();
/// null when empty), `__streams.errors.stacktrace` ("<type>: <message>", C++ keeps no stack
/// trace), `__streams.errors.topic`, `__streams.errors.partition` and `__streams.errors.offset`
/// (decimal text), all UTF-8 strings.
dead_letter_record build_dead_letter_record(std::string_view topic, const error_handler_context& ctx,
                                            std::exception_ptr error);

/// The type name of an exception (e.g. "std::runtime_error"), as written in dead-letter records.
std::string exception_type_name(std::exception_ptr error);

}  // namespace kstreams
