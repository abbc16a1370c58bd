#include "benchmarks/micro/task_bench.hpp"

#include <atomic>
#include <filesystem>
#include <random>
#include <stdexcept>

#include "lib/core/topology_groups.hpp"
#include "lib/runtime/stream_task.hpp"
#include "lib/state/record_cache.hpp"

namespace kstreams::bench {

raw_records::raw_records(std::string topic, std::vector<std::pair<std::string, std::string>> kvs,
                         const headers* hdrs)
    : topic_(std::move(topic)), kvs_(std::move(kvs)) {
    if (kvs_.empty() || (kvs_.size() & (kvs_.size() - 1)) != 0)
        throw std::invalid_argument("raw_records: the number of records must be a power of two");
    mask_ = kvs_.size() - 1;
    raw_.reserve(kvs_.size());
    std::int64_t ts = 0;
    for (std::size_t i = 0; i < kvs_.size(); ++i) {
        detail::raw_record r;
        r.topic = topic_;
        r.offset = static_cast<std::int64_t>(i);
        r.timestamp = ts++;
        r.key = std::string_view(kvs_[i].first);
        r.value = std::string_view(kvs_[i].second);
        r.hdrs = hdrs;
        raw_.push_back(r);
    }
}

task_bench::task_bench(const topology& t, const std::string& topic, std::size_t cache_max_bytes,
                       std::string state_dir)
    : cache_(std::make_unique<state::record_cache>(cache_max_bytes)),
      groups_(std::make_unique<detail::topology_groups>(detail::group_topology(t.model()))),
      env_(std::make_unique<detail::task_environment>()) {
    if (state_dir.empty()) {
        static std::atomic<unsigned> counter{0};
        std::random_device rd;
        temp_dir_ = (std::filesystem::temp_directory_path() /
                     ("kstreams-bench-" + std::to_string(rd()) + "-" + std::to_string(counter++)))
                        .string();
        std::filesystem::create_directories(temp_dir_);
        state_dir = temp_dir_;
    }
    env_->application_id = "bench";
    env_->wall_clock = [] { return std::int64_t{0}; };
    env_->collector = &collector_;
    env_->metrics = &metrics_;
    env_->stores.cache = cache_.get();
    env_->state_dir = std::filesystem::path(state_dir) / env_->application_id;
    for (const auto& sub : groups_->subtopologies) {
        if (std::find(sub.source_topics.begin(), sub.source_topics.end(), topic) == sub.source_topics.end()) continue;
        task_ = std::make_unique<detail::stream_task>(t.model(), *groups_, sub, task_id{sub.id, 0}, *env_);
        task_->init();
        source_ = task_->source_for(topic);
        break;
    }
    if (!source_) throw std::invalid_argument("task_bench: no sub-topology reads topic " + topic);
}

task_bench::~task_bench() {
    task_.reset();
    if (!temp_dir_.empty()) {
        std::error_code ec;
        std::filesystem::remove_all(temp_dir_, ec);
    }
}

void task_bench::process(const detail::raw_record& raw) {
    const std::int64_t ts = task_->extract_timestamp(*source_, raw, task_->stream_time());
    if (ts < 0) return;
    task_->process(*source_, raw, ts, ts);  // now = the record time: e2e-latency counted, as 0
    task_->maybe_punctuate_stream_time();
}

void task_bench::flush() { task_->flush(); }

state_store& task_bench::store(std::string_view name) {
    state_store* s = task_->find_store(name);
    if (!s) throw std::invalid_argument("task_bench: no store " + std::string(name));
    return *s;
}

}  // namespace kstreams::bench
