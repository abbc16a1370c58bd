#include "lib/state/task_directory_lock.hpp"

#include <cerrno>
#include <cstring>
#include <thread>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <kstreams/error.hpp>

namespace kstreams::state {

task_directory_lock::task_directory_lock(const std::filesystem::path& dir, std::chrono::milliseconds wait) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) throw streams_error("cannot create the task directory " + dir.string() + ": " + ec.message());
    const auto file = dir / ".lock";
    fd_ = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0)
        throw streams_error("cannot open the task directory lock " + file.string() + ": " + std::strerror(errno));
    const auto deadline = std::chrono::steady_clock::now() + wait;
    int rc = 0;
    while ((rc = ::flock(fd_, LOCK_EX | LOCK_NB)) != 0 && errno == EWOULDBLOCK &&
           std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds{20});
    if (rc != 0) {
        const int err = errno;
        ::close(fd_);
        fd_ = -1;
        if (err == EWOULDBLOCK)
            throw streams_error("the task directory " + dir.string() +
                                " is locked by another instance (same state.dir and application.id); two "
                                "instances cannot share a task's state");
        throw streams_error("cannot lock the task directory " + dir.string() + ": " + std::strerror(err));
    }
}

task_directory_lock& task_directory_lock::operator=(task_directory_lock&& other) noexcept {
    if (this != &other) {
        release();
        fd_ = other.fd_;
        other.fd_ = -1;
    }
    return *this;
}

void task_directory_lock::release() {
    if (fd_ < 0) return;
    ::flock(fd_, LOCK_UN);
    ::close(fd_);
    fd_ = -1;
}

}  // namespace kstreams::state
