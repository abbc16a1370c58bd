#include "lib/runtime/process_id.hpp"

#include <cctype>
#include <fstream>
#include <random>
#include <sstream>

#include <kstreams/error.hpp>

#include "lib/core/log.hpp"

namespace kstreams::detail {

namespace {

constexpr const char* file_name = "kafka-streams-process-metadata";

/// The "processId" string of the file's JSON object, or empty.
std::string read_process_id(const std::filesystem::path& file) {
    std::ifstream in(file);
    if (!in) return {};
    std::stringstream text;
    text << in.rdbuf();
    const std::string json = text.str();
    const std::string key = "\"processId\"";
    auto pos = json.find(key);
    if (pos == std::string::npos) return {};
    pos = json.find(':', pos + key.size());
    if (pos == std::string::npos) return {};
    pos = json.find('"', pos);
    if (pos == std::string::npos) return {};
    const auto end = json.find('"', pos + 1);
    if (end == std::string::npos) return {};
    std::string id = json.substr(pos + 1, end - pos - 1);
    return is_uuid(id) ? id : std::string();
}

}  // namespace

bool is_uuid(std::string_view s) {
    if (s.size() != 36) return false;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const bool dash = i == 8 || i == 13 || i == 18 || i == 23;
        if (dash ? s[i] != '-' : !std::isxdigit(static_cast<unsigned char>(s[i]))) return false;
    }
    return true;
}

std::string random_uuid() {
    std::random_device rd;
    std::mt19937_64 gen((static_cast<std::uint64_t>(rd()) << 32) ^ rd());
    std::uniform_int_distribution<int> nibble(0, 15);
    static constexpr char hex[] = "0123456789abcdef";
    std::string out;
    for (int i = 0; i < 32; ++i) {
        if (i == 8 || i == 12 || i == 16 || i == 20) out += '-';
        int v = nibble(gen);
        if (i == 12) v = 4;                 // version 4
        if (i == 16) v = 8 | (v & 3);       // variant 10xx
        out += hex[v];
    }
    return out;
}

std::string load_process_id(const std::filesystem::path& app_dir, bool persist) {
    if (!persist || app_dir.empty()) return random_uuid();
    const auto file = app_dir / file_name;
    std::error_code ec;
    if (std::filesystem::exists(file, ec)) {
        if (std::string id = read_process_id(file); !id.empty()) return id;
        KSTREAMS_LOG(warn, "the process file " + file.string() + " cannot be read; writing a fresh process id");
    }
    std::string id = random_uuid();
    std::filesystem::create_directories(app_dir, ec);
    const auto tmp = app_dir / (std::string(file_name) + ".tmp");
    {
        std::ofstream out(tmp, std::ios::trunc);
        out << "{\"processId\":\"" << id << "\"}";
        if (!out.flush()) throw streams_error("could not write the process file " + tmp.string());
    }
    std::filesystem::rename(tmp, file);
    KSTREAMS_LOG(info, "no process id found in " + app_dir.string() + "; a fresh one: " + id);
    return id;
}

}  // namespace kstreams::detail
