#include "lib/runtime/host_directory.hpp"

#include <cstdint>
#include <set>
#include <string_view>

#include "lib/kafka/group_members.hpp"
#include "lib/runtime/process_id.hpp"

namespace kstreams::detail {

/// The embedded cluster's instances in this process: key → (instance → its threads).
struct host_directory::shared_registry {
    struct entry {
        std::string server;
        std::string instance;
        std::map<int, local_thread_state> threads;
    };
    std::mutex mutex;
    std::map<std::string, std::map<const host_directory*, entry>> groups;
};

host_directory::shared_registry& host_directory::registry() {
    static shared_registry r;
    return r;
}

host_directory::host_directory(const std::map<std::string, std::string>& settings, std::string group,
                               std::string server, bool embedded, std::chrono::milliseconds timeout,
                               std::string instance)
    : group_(std::move(group)), server_(std::move(server)), instance_(std::move(instance)), embedded_(embedded),
      timeout_(timeout) {
    if (instance_.empty()) instance_ = server_;
    auto it = settings.find("bootstrap.servers");
    key_ = (it == settings.end() ? std::string() : it->second) + "|" + group_;
    if (!embedded_) {
        auto s = settings;
        s["client.id"] = group_ + "-metadata-admin";
        admin_ = kafka::make_client(RD_KAFKA_PRODUCER, kafka::make_conf(s, "metadata admin client"),
                                    "metadata admin client");
    }
}

host_directory::~host_directory() {
    if (!embedded_) return;
    auto& r = registry();
    std::lock_guard lock(r.mutex);
    auto it = r.groups.find(key_);
    if (it == r.groups.end()) return;
    it->second.erase(this);
    if (it->second.empty()) r.groups.erase(it);
}

void host_directory::set_thread(int index, local_thread_state state) {
    {
        std::lock_guard lock(mutex_);
        threads_[index] = state;
        cached_.reset();
    }
    if (!embedded_) return;
    auto& r = registry();
    std::lock_guard lock(r.mutex);
    auto& mine = r.groups[key_][this];
    mine.server = server_;
    mine.instance = instance_.empty() ? "instance@" + std::to_string(reinterpret_cast<std::uintptr_t>(this)) : instance_;
    mine.threads[index] = std::move(state);
}

void host_directory::remove_thread(int index) {
    {
        std::lock_guard lock(mutex_);
        threads_.erase(index);
        cached_.reset();
    }
    if (!embedded_) return;
    auto& r = registry();
    std::lock_guard lock(r.mutex);
    if (auto it = r.groups.find(key_); it != r.groups.end())
        if (auto me = it->second.find(this); me != it->second.end()) me->second.threads.erase(index);
}

void host_directory::invalidate() {
    std::lock_guard lock(mutex_);
    cached_.reset();
}

std::map<int, local_thread_state> host_directory::local_threads() const {
    std::lock_guard lock(mutex_);
    return threads_;
}

std::optional<std::vector<hosted_partitions>> host_directory::members() {
    if (embedded_) {
        std::vector<hosted_partitions> out;
        auto& r = registry();
        std::lock_guard lock(r.mutex);
        auto it = r.groups.find(key_);
        if (it == r.groups.end()) return out;
        for (const auto& [instance, entry] : it->second)
            for (const auto& [index, thread] : entry.threads)
                out.push_back({entry.server, thread.partitions, entry.instance});
        return out;
    }
    std::lock_guard lock(mutex_);
    // Refreshed after every local rebalance, and at least once a second meanwhile.
    const auto now = std::chrono::steady_clock::now();
    if (cached_ && now - cached_at_ < std::chrono::seconds(1)) return cached_;
    auto described = kafka::describe_group(admin_.get(), group_, timeout_);
    if (!described) return std::nullopt;
    std::vector<hosted_partitions> out;
    for (auto& m : *described) {
        hosted_partitions h{server_of(m.client_id), {}, instance_of(m.client_id)};
        for (auto& [topic, partition] : m.partitions) h.partitions.push_back({std::move(topic), partition});
        out.push_back(std::move(h));
    }
    cached_ = std::move(out);
    cached_at_ = now;
    return cached_;
}

std::string host_directory::consumer_client_id(const std::string& thread_name, const std::string& server,
                                               const std::string& process) {
    return thread_name + "-consumer" + (process.empty() ? std::string() : "-" + process) +
           (server.empty() ? std::string() : "@" + server);
}

std::string host_directory::instance_of(const std::string& client_id) {
    const auto at = client_id.rfind('@');
    const std::string_view name = std::string_view(client_id).substr(0, at);
    constexpr std::size_t uuid_size = 36;
    if (name.size() > uuid_size && name[name.size() - uuid_size - 1] == '-' &&
        is_uuid(name.substr(name.size() - uuid_size)))
        return std::string(name.substr(name.size() - uuid_size));
    const std::string server = server_of(client_id);
    return server.empty() ? client_id : server;
}

std::string host_directory::server_of(const std::string& client_id) {
    const auto at = client_id.rfind('@');
    return at == std::string::npos ? std::string() : client_id.substr(at + 1);
}

std::int32_t murmur2_partition(std::string_view key, std::int32_t partitions) {
    // Kafka's Utils.murmur2: seed 0x9747b28c, 4-byte little-endian blocks, then the tail.
    constexpr std::uint32_t seed = 0x9747b28c;
    constexpr std::uint32_t m = 0x5bd1e995;
    constexpr int r = 24;
    const auto* data = reinterpret_cast<const unsigned char*>(key.data());
    const std::size_t length = key.size();
    std::uint32_t h = seed ^ static_cast<std::uint32_t>(length);
    const std::size_t blocks = length / 4;
    for (std::size_t i = 0; i < blocks; ++i) {
        const std::size_t o = i * 4;
        std::uint32_t k = static_cast<std::uint32_t>(data[o]) | (static_cast<std::uint32_t>(data[o + 1]) << 8) |
                          (static_cast<std::uint32_t>(data[o + 2]) << 16) |
                          (static_cast<std::uint32_t>(data[o + 3]) << 24);
        k *= m;
        k ^= k >> r;
        k *= m;
        h *= m;
        h ^= k;
    }
    const std::size_t tail = blocks * 4;
    switch (length % 4) {
        case 3: h ^= static_cast<std::uint32_t>(data[tail + 2]) << 16; [[fallthrough]];
        case 2: h ^= static_cast<std::uint32_t>(data[tail + 1]) << 8; [[fallthrough]];
        case 1:
            h ^= static_cast<std::uint32_t>(data[tail]);
            h *= m;
    }
    h ^= h >> 13;
    h *= m;
    h ^= h >> 15;
    return static_cast<std::int32_t>((h & 0x7fffffff) % static_cast<std::uint32_t>(partitions));
}

}  // namespace kstreams::detail
