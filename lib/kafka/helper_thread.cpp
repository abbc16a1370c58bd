#include "lib/kafka/helper_thread.hpp"

#include <stdexcept>
#include <utility>

namespace kstreams::kafka {

helper_thread::~helper_thread() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_one();
    if (thread_.joinable()) thread_.join();
}

std::future<void> helper_thread::run(std::function<void()> job) {
    std::packaged_task<void()> task(std::move(job));
    std::future<void> done = task.get_future();
    {
        std::lock_guard lock(mutex_);
        if (job_.valid()) throw std::logic_error("helper_thread: a job was given while another waited to start");
        job_ = std::move(task);
        if (!thread_.joinable()) thread_ = std::thread([this] { loop(); });
    }
    wake_.notify_one();
    return done;
}

void helper_thread::loop() {
    std::unique_lock lock(mutex_);
    for (;;) {
        wake_.wait(lock, [this] { return stopping_ || job_.valid(); });
        if (job_.valid()) {
            std::packaged_task<void()> task = std::move(job_);
            lock.unlock();
            task();  // an exception is kept in the task's future
            lock.lock();
            continue;
        }
        return;
    }
}

}  // namespace kstreams::kafka
