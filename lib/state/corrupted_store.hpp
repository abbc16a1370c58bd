// A store's local data found corrupted (RocksDB reported Corruption while opening or reading it).
// The task manager decides what follows: a store with a changelog is wiped and restored from it; a
// store without one fails the thread with this error, its files left as they are.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include <kstreams/error.hpp>

namespace kstreams::state {

/// Counts the stores whose local data was wiped because it could not be trusted (corrupted files,
/// an unreadable checkpoint, a checkpoint the changelog does not reach), then restored.
inline constexpr std::string_view stores_wiped_metric = "stores-wiped";

/// Where a persistent (RocksDB) store keeps its files in its task's directory.
inline std::filesystem::path store_directory(const std::filesystem::path& task_dir, std::string_view store) {
    return task_dir / "rocksdb" / store;
}

class corrupted_store_error : public streams_error {
public:
    corrupted_store_error(std::string store, std::filesystem::path directory, const std::string& what)
        : streams_error(what), store_(std::move(store)), directory_(std::move(directory)) {}
    const std::string& store() const { return store_; }
    /// The store's local directory (what a wipe removes).
    const std::filesystem::path& directory() const { return directory_; }

private:
    std::string store_;
    std::filesystem::path directory_;
};

}  // namespace kstreams::state
