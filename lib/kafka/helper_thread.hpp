// A thread kept for side jobs run one at a time beside the caller (the exactly-once commit sends
// the consumed offsets on it while it flushes the records in flight). A job then costs a wake-up,
// where std::async started and joined a thread per call: ten a second at exactly-once's commit
// interval.
#pragma once

#include <condition_variable>
#include <functional>
#include <future>
#include <mutex>
#include <thread>

namespace kstreams::kafka {

class helper_thread {
public:
    helper_thread() = default;
    helper_thread(const helper_thread&) = delete;
    helper_thread& operator=(const helper_thread&) = delete;
    /// Waits for the job in progress, if any, then ends the thread.
    ~helper_thread();

    /// Runs `job` on the helper (started at the first call); the future is ready when it returned.
    /// The previous job's future must have been waited for: one job at a time.
    std::future<void> run(std::function<void()> job);

private:
    void loop();

    std::mutex mutex_;
    std::condition_variable wake_;
    std::packaged_task<void()> job_;  ///< valid while a job waits to start
    bool stopping_ = false;
    std::thread thread_;
};

}  // namespace kstreams::kafka
