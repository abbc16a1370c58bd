#include "benchmarks/e2e/plain/task.hpp"

#include "benchmarks/e2e/plain/counting.hpp"
#include "benchmarks/e2e/plain/joins.hpp"

namespace plain {

logged_store& task::add_store(const rocks& db, const std::string& name, rd_kafka_topic_t* changelog,
                              std::int32_t partition) {
    stores_.push_back(std::make_unique<logged_store>(db, dir_ / name, changelog, partition));
    return *stores_.back();
}

void task::maybe_checkpoint() {
    std::int64_t sent = 0;
    for (const auto& s : stores_) {
        if (s->progress.acked < 0 && s->progress.sent > 0) return;  // nothing acknowledged yet
        sent += s->progress.sent;
    }
    if (sent - checkpointed_sent_ <= 10000) return;
    for (const auto& s : stores_) s->flush();
    std::ofstream out(dir_ / ".checkpoint", std::ios::trunc);
    out << "0\n" << stores_.size() << "\n";
    for (const auto& s : stores_)
        out << rd_kafka_topic_name(s->changelog()) << " " << s->partition() << " " << s->progress.acked + 1 << "\n";
    checkpointed_sent_ = sent;
}

std::unique_ptr<task> make_task(const std::string& pipeline, const task_setup& setup, std::int32_t partition) {
    if (auto t = make_counting_task(pipeline, setup, partition)) return t;
    return make_join_task(pipeline, setup, partition);
}

std::vector<std::string> store_names(const std::string& pipeline) {
    if (pipeline == "count" || pipeline == "count_nocache" || pipeline == "kv_store") return {"store"};
    if (pipeline == "hopping_count") return {"windows"};
    if (pipeline == "table_join") return {"table"};
    if (pipeline == "stream_join") return {"this", "other", "outer"};
    return {};
}

}  // namespace plain
