#include "lib/state/rocksdb_key_value_store.hpp"

#include <algorithm>
#include <exception>

#include <rocksdb/db.h>
#include <rocksdb/iterator.h>
#include <rocksdb/options.h>
#include <rocksdb/perf_level.h>
#include <rocksdb/write_batch.h>

#include <kstreams/error.hpp>
#include <kstreams/state/stores.hpp>

#include "lib/core/log.hpp"
#include "lib/state/corrupted_store.hpp"
#include "lib/state/rocksdb_shared.hpp"
#include "lib/state/store_resources.hpp"

namespace kstreams::state {

namespace {

rocksdb::Slice slice(std::string_view s) { return {s.data(), s.size()}; }
std::string_view view(const rocksdb::Slice& s) { return {s.data(), s.size()}; }

/// What a hot entry costs beside its key and value bytes (the map's node, the strings' headers).
constexpr std::size_t hot_entry_overhead = 96;

/// RocksDB counts every comparison and block read of a thread in its thread-local perf context
/// unless the thread says otherwise (its default level is kEnableCount), and reaches that context
/// through the shared library's TLS lookup each time: ~5 % of a stream-stream join's CPU. Nothing
/// here reads those counters, so each thread that touches a store turns them off once.
void perf_counters_off() {
    static thread_local bool off = false;
    if (off) return;
    rocksdb::SetPerfLevel(rocksdb::PerfLevel::kDisable);
    off = true;
}

/// The smallest key greater than every key starting with `prefix`; nullopt if there is none.
std::optional<std::string> prefix_successor(std::string_view prefix) {
    std::string s(prefix);
    while (!s.empty() && static_cast<unsigned char>(s.back()) == 0xff) s.pop_back();
    if (s.empty()) return std::nullopt;
    s.back() = static_cast<char>(static_cast<unsigned char>(s.back()) + 1);
    return s;
}

}  // namespace

/// A RocksDB iterator with the bounds it reads through (RocksDB keeps pointers to the slices, so
/// a reused iterator gets new bounds by changing what they point to).
struct rocksdb_key_value_store::pooled_iterator {
    explicit pooled_iterator(bool bounded) : bounded_above(bounded) {}
    const bool bounded_above;
    std::string lower, upper;
    rocksdb::Slice lower_slice, upper_slice;
    std::unique_ptr<rocksdb::Iterator> it;
};

/// An ordered scan with RocksDB's bounds doing the range checks. RocksDB iterators read a
/// consistent snapshot, so writes during the scan are not seen (as the in-memory store's copy).
class rocksdb_iterator final : public bytes_iterator {
public:
    rocksdb_iterator(rocksdb_key_value_store& store, std::optional<std::string_view> lower,
                     std::optional<std::string_view> upper, bool upper_inclusive, bool reverse)
        : store_(&store), reverse_(reverse) {
        p_ = store.take_iterator(lower, upper, upper_inclusive);
        store.open_iterators_.push_back(this);
        if (reverse_) p_->it->SeekToLast();
        else p_->it->SeekToFirst();
        settle();
    }
    ~rocksdb_iterator() override {
        if (!store_) return;
        auto& open = store_->open_iterators_;
        *std::find(open.begin(), open.end(), this) = open.back();
        open.pop_back();
        store_->recycle(std::move(p_));
    }
    bool valid() const override { return valid_; }
    void next() override {
        if (!valid_) return;
        if (reverse_) p_->it->Prev();
        else p_->it->Next();
        settle();
    }
    std::string_view key() const override { return view(p_->it->key()); }
    std::string_view value() const override { return view(p_->it->value()); }

    /// The store is closing: the RocksDB iterator must go before the database does.
    void release() {
        p_.reset();
        valid_ = false;
        store_ = nullptr;
    }

private:
    void settle() {
        valid_ = p_->it->Valid();
        if (!valid_) store_->check(p_->it->status(), "iterate");
    }

    rocksdb_key_value_store* store_;
    bool reverse_;
    std::unique_ptr<rocksdb_key_value_store::pooled_iterator> p_;
    bool valid_ = false;
};

std::unique_ptr<rocksdb_key_value_store::pooled_iterator> rocksdb_key_value_store::take_iterator(
    std::optional<std::string_view> lower, std::optional<std::string_view> upper, bool upper_inclusive) {
    perf_counters_off();
    write_dirty();  // the scan sees every write made before it
    std::unique_ptr<pooled_iterator> p = std::move(spare_[upper ? 0 : 1]);
    if (!p) p = std::make_unique<pooled_iterator>(upper.has_value());
    // No lower bound is the empty one: every key is at or above it. Assigned, so that a reused
    // iterator's strings keep their capacity.
    p->lower.assign(lower ? *lower : std::string_view());
    p->lower_slice = slice(p->lower);
    if (upper) {
        p->upper.assign(*upper);
        if (upper_inclusive) p->upper.push_back('\0');  // the immediate successor of `upper`
        p->upper_slice = slice(p->upper);
    }
    // A refresh takes the latest state, as a new iterator would; one that fails is replaced.
    if (p->it && !p->it->Refresh().ok()) p->it.reset();
    if (!p->it) {
        rocksdb::ReadOptions ro;
        ro.iterate_lower_bound = &p->lower_slice;
        if (p->bounded_above) ro.iterate_upper_bound = &p->upper_slice;
        p->it.reset(db_->NewIterator(ro));
    }
    return p;
}

void rocksdb_key_value_store::recycle(std::unique_ptr<pooled_iterator> it) {
    if (!db_ || !it || !it->it) return;
    auto& spare = spare_[it->bounded_above ? 0 : 1];
    if (!spare) spare = std::move(it);
}

namespace {
class empty_iterator final : public bytes_iterator {
public:
    bool valid() const override { return false; }
    void next() override {}
    std::string_view key() const override { return {}; }
    std::string_view value() const override { return {}; }
};
}  // namespace

void rocksdb_key_value_store::write_hot(std::string_view key, std::optional<std::string_view> value) {
    hot_node* node = hot_.find(key);
    if (!node) {
        node = &hot_.emplace(key);
        hot_bytes_ += hot_entry_overhead + key.size();
    } else if (node->second.value) {
        hot_bytes_ -= node->second.value->size();
    }
    hot_entry& e = node->second;
    if (value) {
        if (e.value) e.value->assign(value->data(), value->size());
        else e.value.emplace(*value);
        hot_bytes_ += value->size();
    } else {
        e.value.reset();
    }
    if (!e.dirty) {
        e.dirty = true;
        dirty_.push_back(node);
    }
    trim_hot();
}

void rocksdb_key_value_store::write_behind(std::string_view key, std::optional<std::string_view> value) {
    unwritten_.push_back({unwritten_bytes_.size(), key.size(), value ? value->size() : 0, !value});
    unwritten_bytes_.append(key);
    if (value) unwritten_bytes_.append(*value);
    if (unwritten_bytes_.size() + unwritten_.size() * sizeof(unwritten_entry) <= hot_bytes_limit) return;
    write_unwritten();
    // After this many writes the spare iterators' memtables may be flushed: let them go (as drop_hot).
    for (auto& spare : spare_) spare.reset();
}

void rocksdb_key_value_store::write_unwritten() {
    if (unwritten_.empty()) return;
    const char* bytes = unwritten_bytes_.data();
    const auto key_of = [bytes](const unwritten_entry& e) { return std::string_view(bytes + e.at, e.key_size); };
    // In key order, as write_dirty's; stable, so that the last write of a key is applied last.
    std::stable_sort(unwritten_.begin(), unwritten_.end(),
                     [&](const unwritten_entry& a, const unwritten_entry& b) { return key_of(a) < key_of(b); });
    rocksdb::WriteBatch wb(unwritten_bytes_.size() + unwritten_.size() * 16);
    for (const unwritten_entry& e : unwritten_) {
        if (e.erase) wb.Delete(slice(key_of(e)));
        else wb.Put(slice(key_of(e)), rocksdb::Slice(bytes + e.at + e.key_size, e.value_size));
    }
    unwritten_.clear();
    unwritten_bytes_.clear();
    perf_counters_off();
    check(db_->Write(*write_options_, &wb), "write");
}

void rocksdb_key_value_store::write_dirty() {
    write_unwritten();
    if (dirty_.empty()) return;
    // In key order: the memtable's skip list inserts a run of ascending keys cheaply.
    std::sort(dirty_.begin(), dirty_.end(), [](const auto* a, const auto* b) { return a->first < b->first; });
    rocksdb::WriteBatch wb;
    for (auto* e : dirty_) {
        e->second.dirty = false;
        if (e->second.value) wb.Put(slice(e->first), slice(*e->second.value));
        else wb.Delete(slice(e->first));
    }
    dirty_.clear();
    perf_counters_off();
    check(db_->Write(*write_options_, &wb), "write");
}

void rocksdb_key_value_store::drop_hot() {
    write_dirty();
    hot_.clear();
    hot_bytes_ = 0;
    // After this many writes the spare iterators' memtables may be flushed: let them go.
    for (auto& spare : spare_) spare.reset();
}

rocksdb_key_value_store::rocksdb_key_value_store(std::string name, std::string subdirectory)
    : name_(std::move(name)), subdirectory_(subdirectory.empty() ? name_ : std::move(subdirectory)) {}

rocksdb_key_value_store::~rocksdb_key_value_store() {
    try {
        close();
    } catch (const std::exception& e) {
        KSTREAMS_LOG(error, "store " + name_ + ": error while closing: " + e.what());
    }
}

void rocksdb_key_value_store::check(const rocksdb::Status& s, std::string_view operation) const {
    if (s.ok()) return;
    if (s.IsCorruption())
        throw corrupted_store_error(name_, dir_,
                                    "store " + name_ + " (RocksDB at " + dir_.string() + "): " + std::string(operation) +
                                        " found its local data corrupted: " + s.ToString());
    throw streams_error("store " + name_ + " (RocksDB at " + dir_.string() + "): " + std::string(operation) +
                        " failed: " + s.ToString());
}

void rocksdb_key_value_store::ensure_open(std::string_view operation) const {
    if (!db_) throw streams_error("store " + name_ + ": " + std::string(operation) + " on a store that is not open");
}

void rocksdb_key_value_store::init(store_context& ctx) {
    const std::filesystem::path task_dir = ctx.task_directory();
    if (task_dir.empty())
        throw streams_error("store " + name_ + " is a persistent (RocksDB) store, but the task " +
                            ctx.task_id().to_string() + " has no state directory (set state.dir)");
    std::shared_ptr<rocksdb_shared> shared;
    if (auto* res = ctx.resources()) shared = res->rocksdb;
    const auto dir = store_directory(task_dir, subdirectory_);
    // A store without local data (new, or its directory deleted) cannot trust the checkpoint.
    const bool fresh = !std::filesystem::exists(dir / "CURRENT");
    open_at(dir, std::move(shared));
    if (fresh) ctx.discard_checkpoint(name_);
    ctx.register_store(*this, [this](std::span<const restore_record> batch) {
        rocksdb::WriteBatch wb;
        for (const auto& r : batch) {
            if (r.value) wb.Put(slice(r.key), slice(*r.value));
            else wb.Delete(slice(r.key));
        }
        write_batch(wb);
    });
}

void rocksdb_key_value_store::open_at(const std::filesystem::path& dir, std::shared_ptr<rocksdb_shared> shared) {
    dir_ = dir;
    // Without an application-wide one, each store gets Kafka Streams' per-store defaults.
    shared_ = shared ? std::move(shared) : std::make_shared<rocksdb_shared>(rocksdb_memory_config{50u << 20, 0, {}});
    options_ = std::make_unique<rocksdb::Options>();
    shared_->configure(name_, *options_);
    write_options_ = std::make_unique<rocksdb::WriteOptions>();
    write_options_->disableWAL = true;
    read_options_ = std::make_unique<rocksdb::ReadOptions>();

    std::error_code ec;
    std::filesystem::create_directories(dir_, ec);
    if (ec) throw streams_error("store " + name_ + ": cannot create its directory " + dir_.string() + ": " + ec.message());
    // Table files without a CURRENT file: RocksDB would start an empty database beside them.
    if (!std::filesystem::exists(dir_ / "CURRENT", ec))
        for (const auto& e : std::filesystem::directory_iterator(dir_, ec))
            if (e.path().extension() == ".sst")
                throw corrupted_store_error(name_, dir_,
                                            "store " + name_ + ": its local data at " + dir_.string() +
                                                " is corrupted: table files but no CURRENT file");
    // Nothing is wiped here: only a store with a changelog may be, and only for corruption; that is
    // the task manager's decision (corrupted_store_error). Any other failure (a lock, too many open
    // files, a full disk) leaves the files alone, as Kafka Streams' "Error opening store".
    const rocksdb::Status s = rocksdb::DB::Open(*options_, dir_.string(), &db_);
    if (s.ok()) return;
    db_ = nullptr;
    // A file the database refers to is gone (CURRENT names a missing MANIFEST, the MANIFEST a
    // missing table file): RocksDB says "IO error: No such file", but the data is lost all the same.
    if (s.IsCorruption() || s.IsPathNotFound())
        throw corrupted_store_error(name_, dir_,
                                    "store " + name_ + ": its local data at " + dir_.string() +
                                        " is corrupted: " + s.ToString());
    throw streams_error("Error opening store " + name_ + " at location " + dir_.string() + ": " + s.ToString() +
                        " (its files are left as they are)");
}

void rocksdb_key_value_store::flush() {
    if (!db_) return;
    write_dirty();
    // Spare iterators hold on to the memtables they read: let flushed ones go.
    for (auto& spare : spare_) spare.reset();
    rocksdb::FlushOptions fo;
    fo.wait = true;
    check(db_->Flush(fo), "flush");
}

void rocksdb_key_value_store::close() {
    if (!db_) return;
    std::exception_ptr pending;
    try {
        write_dirty();
    } catch (...) {
        pending = std::current_exception();  // the database is closed all the same
    }
    hot_.clear();
    dirty_.clear();
    hot_bytes_ = 0;
    unwritten_.clear();
    unwritten_bytes_.clear();
    for (auto& spare : spare_) spare.reset();
    for (auto* it : open_iterators_) it->release();
    open_iterators_.clear();
    // With the WAL off, closing flushes the memtables (avoid_flush_during_shutdown is false).
    rocksdb::Status s = db_->Close();
    delete db_;
    db_ = nullptr;
    shared_->closed(name_, *options_);
    if (pending) std::rethrow_exception(pending);
    check(s, "close");
}

std::optional<std::string> rocksdb_key_value_store::get(std::string_view key) {
    std::string value;
    if (!get_into(key, value)) return std::nullopt;
    return value;
}

bool rocksdb_key_value_store::get_into(std::string_view key, std::string& out) {
    ensure_open("get");
    if (keys_written_once_) {
        write_unwritten();  // the get sees every write made before it
    } else if (const hot_node* node = hot_.find(key)) {
        if (!node->second.value) return false;
        out.assign(*node->second.value);
        return true;
    }
    perf_counters_off();
    rocksdb::Status s = db_->Get(*read_options_, slice(key), &out);
    if (s.IsNotFound()) return false;
    check(s, "get");
    if (keys_written_once_) return true;
    // Kept: the next get of the key (a read-modify-write's, or a hot key's) needs no RocksDB read.
    hot_.emplace(key).second.value.emplace(out);  // not hot: the lookup above found nothing
    hot_bytes_ += hot_entry_overhead + key.size() + out.size();
    trim_hot();
    return true;
}

void rocksdb_key_value_store::put(std::string_view key, std::string_view value) {
    ensure_open("put");
    write(key, value);
}

std::optional<std::string> rocksdb_key_value_store::put_if_absent(std::string_view key, std::string_view value) {
    auto old = get(key);
    if (!old) put(key, value);
    return old;
}

void rocksdb_key_value_store::put_all(const std::vector<std::pair<std::string, std::string>>& entries) {
    ensure_open("put_all");
    for (const auto& [k, v] : entries) write(k, v);
}

std::optional<std::string> rocksdb_key_value_store::remove(std::string_view key) {
    auto old = get(key);
    if (old) erase(key);
    return old;
}

void rocksdb_key_value_store::erase(std::string_view key) {
    ensure_open("delete");
    write(key, std::nullopt);
}

void rocksdb_key_value_store::delete_range(std::string_view from, std::string_view to) {
    ensure_open("delete_range");
    drop_hot();  // the hot entries in the range would outlive it
    check(db_->DeleteRange(*write_options_, db_->DefaultColumnFamily(), slice(from), slice(to)), "delete_range");
}

void rocksdb_key_value_store::write_batch(rocksdb::WriteBatch& batch) {
    ensure_open("write");
    drop_hot();  // the batch may overwrite hot entries
    perf_counters_off();
    check(db_->Write(*write_options_, &batch), "write batch");
}

std::unique_ptr<bytes_iterator> rocksdb_key_value_store::range(const key_range& r, bool reverse) {
    ensure_open("range");
    if (r.from && r.to && *r.from > *r.to) {
        KSTREAMS_LOG(warn, "store " + name_ + ": range query with from > to returns nothing");
        return std::make_unique<empty_iterator>();
    }
    std::optional<std::string_view> from, to;
    if (r.from) from = *r.from;
    if (r.to) to = *r.to;
    return std::make_unique<rocksdb_iterator>(*this, from, to, true, reverse);
}

std::unique_ptr<bytes_iterator> rocksdb_key_value_store::prefix_scan(std::string_view prefix) {
    ensure_open("prefix_scan");
    const std::optional<std::string> successor = prefix_successor(prefix);
    std::optional<std::string_view> upper;
    if (successor) upper = *successor;
    return std::make_unique<rocksdb_iterator>(*this, prefix, upper, false, false);
}

std::uint64_t rocksdb_key_value_store::approximate_num_entries() {
    ensure_open("approximate_num_entries");
    write_dirty();
    std::uint64_t n = 0;
    if (!db_->GetIntProperty("rocksdb.estimate-num-keys", &n)) return 0;
    return n;
}

}  // namespace kstreams::state

namespace kstreams::stores {

namespace {
class rocksdb_supplier final : public key_value_bytes_store_supplier {
public:
    rocksdb_supplier(std::string name, bool timestamped) : name_(std::move(name)), timestamped_(timestamped) {}
    const std::string& name() const override { return name_; }
    std::unique_ptr<bytes_key_value_store> get() const override {
        auto store = std::make_unique<state::rocksdb_key_value_store>(name_);
        store->set_plain_values(!timestamped_);
        return store;
    }

private:
    std::string name_;
    bool timestamped_;
};
}  // namespace

std::shared_ptr<const key_value_bytes_store_supplier> persistent_key_value_store(std::string name) {
    return std::make_shared<rocksdb_supplier>(std::move(name), false);
}

std::shared_ptr<const key_value_bytes_store_supplier> persistent_timestamped_key_value_store(std::string name) {
    return std::make_shared<rocksdb_supplier>(std::move(name), true);
}

}  // namespace kstreams::stores
