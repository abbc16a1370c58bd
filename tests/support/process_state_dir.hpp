// State directories of a test process. Named by the process id so parallel test processes never
// share one; emptied when first handed out (a reused PID meets an old process's leftovers) and
// removed when the process exits, so runs do not pile directories up under /tmp.
#pragma once

#include <filesystem>
#include <mutex>
#include <string>
#include <vector>

#include <unistd.h>

namespace kstreams::test {

namespace detail {

class state_dir_registry {
public:
    ~state_dir_registry() {
        for (const auto& dir : dirs_) {
            std::error_code ignored;
            std::filesystem::remove_all(dir, ignored);
        }
    }

    std::filesystem::path claim(const std::string& name) {
        auto dir = std::filesystem::temp_directory_path() / (name + "-" + std::to_string(::getpid()));
        std::lock_guard lock(mutex_);
        for (const auto& known : dirs_)
            if (known == dir) return dir;
        std::error_code ignored;
        std::filesystem::remove_all(dir, ignored);
        dirs_.push_back(dir);
        return dir;
    }

private:
    std::mutex mutex_;
    std::vector<std::filesystem::path> dirs_;
};

}  // namespace detail

/// `/tmp/<name>-<pid>`: the same path for every call with `name` in this process.
inline std::filesystem::path process_state_dir(const std::string& name) {
    static detail::state_dir_registry registry;
    return registry.claim(name);
}

}  // namespace kstreams::test
