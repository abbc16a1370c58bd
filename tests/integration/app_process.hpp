// A test app as a process of its own: spawned with its stderr in a log file, stopped cleanly
// (SIGTERM), killed (SIGKILL) or frozen (SIGSTOP) by the test. For the multi-process integration
// tests on the real broker.
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

extern char** environ;

namespace kstreams::test {

/// One app process (by default scale_app; `program_env` names the variable holding its path), its
/// stderr in a log file.
struct instance {
    pid_t pid = -1;
    std::filesystem::path log;

    instance(const std::vector<std::string>& args, std::filesystem::path log_file,
             const char* program_env = "KSTREAMS_SCALE_APP")
        : log(std::move(log_file)) {
        const char* app = std::getenv(program_env);
        REQUIRE_MESSAGE(app, program_env << " must name the app's program (meson sets it)");
        std::vector<std::string> argv_s{app};
        argv_s.insert(argv_s.end(), args.begin(), args.end());
        std::vector<char*> argv;
        for (auto& a : argv_s) argv.push_back(a.data());
        argv.push_back(nullptr);
        posix_spawn_file_actions_t fa;
        posix_spawn_file_actions_init(&fa);
        posix_spawn_file_actions_addopen(&fa, 2, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
        std::vector<std::string> env_s{"KSTREAMS_LOG=info"};
        for (char** e = environ; *e; ++e) env_s.emplace_back(*e);
        std::vector<char*> envp;
        for (auto& e : env_s) envp.push_back(e.data());
        envp.push_back(nullptr);
        REQUIRE(posix_spawn(&pid, app, &fa, nullptr, argv.data(), envp.data()) == 0);
        posix_spawn_file_actions_destroy(&fa);
    }
    ~instance() {
        if (pid > 0) {
            ::kill(pid, SIGKILL);
            ::waitpid(pid, nullptr, 0);
        }
    }
    /// SIGTERM and wait: the app closes cleanly and exits 0.
    int stop() {
        ::kill(pid, SIGTERM);
        int status = 0;
        ::waitpid(pid, &status, 0);
        pid = -1;
        if (WIFSIGNALED(status)) {
            // Say how it died: a crash at close is otherwise only "-1".
            MESSAGE("instance killed by signal " << WTERMSIG(status) << "; its log:\n" << output());
            return -1;
        }
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }
    void kill_hard() {
        ::kill(pid, SIGKILL);
        ::waitpid(pid, nullptr, 0);
        pid = -1;
    }
    /// SIGSTOP / SIGCONT: the process freezes with its sockets open (a zombie once the group moves on).
    void freeze() { ::kill(pid, SIGSTOP); }
    void thaw() { ::kill(pid, SIGCONT); }
    std::string output() const {
        std::ifstream in(log);
        std::stringstream s;
        s << in.rdbuf();
        return s.str();
    }
    /// "running" or how the process ended, without waiting.
    std::string liveness() {
        if (pid <= 0) return "stopped by the test";
        int status = 0;
        if (::waitpid(pid, &status, WNOHANG) == 0) return "running";
        pid = -1;
        if (WIFSIGNALED(status)) return "killed by signal " + std::to_string(WTERMSIG(status));
        return "exited with " + std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    }
    /// The log's last `lines` lines.
    std::string tail(std::size_t lines = 30) const {
        const std::string out = output();
        std::size_t pos = out.size();
        for (std::size_t n = 0; n <= lines && pos > 0; ++n) pos = out.rfind('\n', pos - 1);
        return pos == std::string::npos ? out : out.substr(pos + 1);
    }
    /// Whether the log says it was assigned at least one partition.
    bool had_partitions() const {
        const std::string out = output();
        for (std::size_t pos = 0; (pos = out.find("assigned ", pos)) != std::string::npos; ++pos)
            if (out.compare(pos, 11, "assigned 0 ") != 0) return true;
        return false;
    }
};

}  // namespace kstreams::test
