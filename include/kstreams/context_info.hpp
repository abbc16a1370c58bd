// What every context a user's code gets (processor_context, value_transformer_context) tells of its
// task and application, as Kafka's ProcessorContext: ids, the app's configuration, the task's state
// directory and user metrics.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <string_view>

#include <kstreams/detail/task_context.hpp>
#include <kstreams/streams_metrics.hpp>
#include <kstreams/task_id.hpp>

namespace kstreams {

class context_info {
public:
    std::string_view application_id() const { return task_->application_id(); }
    kstreams::task_id task_id() const { return task_->id(); }
    /// Every setting of the application (Kafka's appConfigs()): the properties it was configured
    /// with, its settings of its own (streams_config::app_configs: keys unknown to Kafka Streams
    /// and the clients) and kstreams' internal ones.
    const detail::app_config_map& app_configs() const { return task_->app_configs(); }
    /// The settings whose key starts with `prefix`, the prefix removed (Kafka's appConfigsWithPrefix).
    std::map<std::string, std::string> app_configs_with_prefix(std::string_view prefix) const;
    /// The task's own directory, `<state.dir>/<application.id>/<task id>` (Kafka's stateDir());
    /// empty where the runner keeps no state on disk.
    std::filesystem::path state_dir() const { return task_->state_directory(); }
    /// User metrics (Kafka's metrics(): StreamsMetrics), recorded into this task's counters.
    streams_metrics metrics() const { return streams_metrics(task_->metrics(), task_->recording_level()); }

protected:
    explicit context_info(detail::task_context& task) : task_(&task) {}
    detail::task_context* task_;
};

}  // namespace kstreams
