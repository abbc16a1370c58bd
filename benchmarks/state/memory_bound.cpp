// Memory bound of stateful processing: writes many distinct keys through caching RocksDB stores
// and reports peak RSS against the configured limits (record cache + RocksDB block cache, which the
// write-buffer manager charges the memtables to) plus a stated overhead. A program, not a test:
// it prints what it measured and never fails because of it.
//
//   memory_bound [--records N] [--stores S] [--value-bytes B] [--cache-mib C] [--block-cache-mib M]
//                [--write-buffer-mib W]   (W = 0: no write-buffer manager, memtables unbounded)
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

#include <kstreams/processor.hpp>
#include <kstreams/state/stores.hpp>
#include <kstreams/test/topology_test_driver.hpp>
#include <kstreams/topology.hpp>

using namespace kstreams;

namespace {

long rss_kib(const char* field) {
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind(field, 0) == 0) return std::strtol(line.c_str() + std::strlen(field), nullptr, 10);
    return -1;
}

struct options {
    long records = 400000;
    int stores = 4;
    long value_bytes = 200;
    long cache_mib = 10;
    long block_cache_mib = 64;
    long write_buffer_mib = 32;
};

/// Writes each record's value under its key into every store.
class fan_out final : public processor<std::int64_t, std::string, std::int64_t, std::string> {
public:
    explicit fan_out(int stores) : n_(stores) {}
    void init(context_type& ctx) override {
        for (int i = 0; i < n_; ++i)
            stores_.push_back(&ctx.get_state_store<key_value_store<std::int64_t, std::string>>("s" + std::to_string(i)));
    }
    void process(const record<std::int64_t, std::string>& r) override {
        for (auto* s : stores_) s->put(r.key, r.value);
    }

private:
    int n_;
    std::vector<key_value_store<std::int64_t, std::string>*> stores_;
};

}  // namespace

int main(int argc, char** argv) {
    options o;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string a = argv[i];
        const long v = std::strtol(argv[i + 1], nullptr, 10);
        if (a == "--records") o.records = v;
        else if (a == "--stores") o.stores = static_cast<int>(v);
        else if (a == "--value-bytes") o.value_bytes = v;
        else if (a == "--cache-mib") o.cache_mib = v;
        else if (a == "--block-cache-mib") o.block_cache_mib = v;
        else if (a == "--write-buffer-mib") o.write_buffer_mib = v;
        else {
            std::fprintf(stderr, "unknown option %s\n", a.c_str());
            return 2;
        }
    }

    topology t;
    std::vector<std::string> names;
    t.add_source<std::int64_t, std::string>("src", {"in"});
    const int stores = o.stores;
    t.add_processor("fan-out", [stores] { return std::make_unique<fan_out>(stores); }, {"src"});
    for (int i = 0; i < o.stores; ++i)
        t.add_state_store(stores::key_value_store_builder<std::int64_t, std::string>(
                              stores::persistent_key_value_store("s" + std::to_string(i)))
                              .with_caching_enabled()
                              .with_logging_disabled(),  // the driver would keep every changelog record
                          {"fan-out"});

    test::driver_config cfg;
    cfg.commit_after_every_record = false;
    cfg.cache_max_bytes = static_cast<std::size_t>(o.cache_mib) << 20;
    cfg.rocksdb.block_cache_bytes = static_cast<std::size_t>(o.block_cache_mib) << 20;
    cfg.rocksdb.write_buffer_manager_bytes = static_cast<std::size_t>(o.write_buffer_mib) << 20;

    const long baseline = rss_kib("VmRSS:");
    {
        test::topology_test_driver driver(t, cfg);
        auto in = driver.create_input_topic<std::int64_t, std::string>("in");
        std::string value(static_cast<std::size_t>(o.value_bytes), 'x');
        std::uint64_t x = 88172645463325252ull;
        for (long i = 0; i < o.records; ++i) {
            x ^= x << 13;  // xorshift: distinct keys in no particular order
            x ^= x >> 7;
            x ^= x << 17;
            value[static_cast<std::size_t>(i % o.value_bytes)] = static_cast<char>('a' + i % 26);
            in.pipe_input(static_cast<std::int64_t>(x), value, i);
            if (i % 10000 == 9999) driver.commit();
        }
        driver.commit();
    }
    const long peak = rss_kib("VmHWM:");

    const double mib = 1024.0;
    const double data = static_cast<double>(o.records) * o.stores * (o.value_bytes + 8) / (1 << 20);
    const long overhead_mib = 48;  // allocator, RocksDB per-DB arenas and table readers, the driver
    const long bound_mib = o.cache_mib + o.block_cache_mib + overhead_mib;
    std::printf("records %ld x %d stores, %ld-byte values: %.0f MiB written\n", o.records, o.stores, o.value_bytes,
                data);
    std::printf("record cache %ld MiB, block cache %ld MiB (write-buffer manager %ld MiB charged to it)\n",
                o.cache_mib, o.block_cache_mib, o.write_buffer_mib);
    std::printf("baseline RSS %.1f MiB, peak RSS %.1f MiB, growth %.1f MiB\n", baseline / mib, peak / mib,
                (peak - baseline) / mib);
    std::printf("bound: record cache + block cache + %ld MiB stated overhead = %ld MiB above baseline -> %s\n",
                overhead_mib, bound_mib, (peak - baseline) / mib <= bound_mib ? "within" : "EXCEEDED");
    return 0;
}
