// Exclusive use of a task directory `<state.dir>/<application.id>/<task id>` (Kafka Streams'
// StateDirectory lock): an flock on `<task dir>/.lock`, so two instances (processes, or two runners
// in one process) never share a task's local stores.
#pragma once

#include <chrono>
#include <filesystem>

namespace kstreams::state {

class task_directory_lock {
public:
    task_directory_lock() = default;
    /// Creates the directory and locks it, waiting up to `wait` for another holder to let go (a
    /// task moving between threads of one process is closed by one while the other opens it);
    /// throws streams_error naming the directory if it stays held.
    explicit task_directory_lock(const std::filesystem::path& dir,
                                 std::chrono::milliseconds wait = std::chrono::milliseconds{0});
    task_directory_lock(task_directory_lock&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
    task_directory_lock& operator=(task_directory_lock&& other) noexcept;
    ~task_directory_lock() { release(); }

    bool held() const { return fd_ >= 0; }
    void release();

private:
    int fd_ = -1;
};

}  // namespace kstreams::state
