// A Bloom filter of the keys a stream-stream left/outer join has parked in its outer store, so that
// the "is this partner parked?" check (one per partner found) and the "is anything parked under
// this key already?" one (one per record parked) read the store only on a "maybe". It never
// answers "no" for a key the store holds, so the join's results and changelog are the store's.
//
// Its memory is bounded whatever the store holds (the store is meant to spill to disk): 12 bits
// per key in 512-bit blocks, sized for twice the keys found at its last build, at most
// max_bytes. A removed key's bits stay set (a plain Bloom filter cannot clear them), so the filter
// is built again, by a scan of the store, once as many keys were added since the last build as it
// was sized for: the false-positive rate stays near its design (~0.5 %) however many keys come and
// go, and a scan of n keys comes at most once per n keys added. Built at the task's first record,
// after restoration (a task revived, promoted from standby or reopened is a new task, so a new
// filter); the join's puts are the store's only writes after that.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace kstreams::dsl_detail {

class parked_key_filter {
public:
    static constexpr std::size_t bits_per_key = 12;
    static constexpr std::size_t max_bytes = std::size_t{4} << 20;
    static constexpr std::size_t min_keys = 4096;  ///< sized for at least this many

    bool built() const { return built_; }
    /// Starts over from the keys `outer` holds (any store whose all() yields entries with a key).
    template <class Store>
    void build(Store& outer) {
        std::vector<std::uint64_t> hashes;
        for (auto it = outer.all(); it.has_next();) hashes.push_back(hash(it.next().key));
        build_from(hashes);
    }
    /// False only if the store certainly does not hold `key`.
    bool may_hold(std::string_view key) const;
    /// After a put of `key`; true if the filter is due to be built again (full).
    [[nodiscard]] bool added(std::string_view key);

    /// What the filter has answered since it was built: "no", and "maybe" for a key the store did
    /// not hold (reported by the caller through false_positive()).
    std::uint64_t negatives() const { return negatives_; }
    std::uint64_t false_positives() const { return false_positives_; }
    void false_positive() { ++false_positives_; }
    std::uint64_t builds() const { return builds_; }
    std::size_t bytes() const { return words_.size() * sizeof(std::uint64_t); }
    /// Off when the store holds more keys than max_bytes can answer for: every answer is "maybe".
    bool on() const { return on_; }

    static std::uint64_t hash(std::string_view key);

private:
    void build_from(const std::vector<std::uint64_t>& hashes);
    void set(std::uint64_t h);
    bool test(std::uint64_t h) const;

    std::vector<std::uint64_t> words_;  ///< blocks of 8 words
    std::size_t blocks_ = 0;
    std::size_t room_ = 0;  ///< keys that may be added before the next build
    bool built_ = false;
    bool on_ = false;
    mutable std::uint64_t negatives_ = 0;
    std::uint64_t false_positives_ = 0;
    std::uint64_t builds_ = 0;
};

}  // namespace kstreams::dsl_detail
