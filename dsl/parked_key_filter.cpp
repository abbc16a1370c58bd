#include <kstreams/dsl/detail/parked_key_filter.hpp>

#include <algorithm>
#include <functional>

namespace kstreams::dsl_detail {

namespace {

constexpr std::size_t block_words = 8;  // 512 bits: one cache line per key
constexpr int probes = 7;               // near optimal for 12 bits per key; 9 hash bits each

std::uint64_t mix(std::uint64_t x) {  // splitmix64's finalizer
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

}  // namespace

std::uint64_t parked_key_filter::hash(std::string_view key) { return mix(std::hash<std::string_view>{}(key)); }

void parked_key_filter::build_from(const std::vector<std::uint64_t>& hashes) {
    const std::size_t n = hashes.size();
    const std::size_t want_bits = std::max(2 * n, min_keys) * bits_per_key;
    blocks_ = std::min((want_bits + 511) / 512, max_bytes / (block_words * sizeof(std::uint64_t)));
    words_.assign(blocks_ * block_words, 0);
    const std::size_t capacity = blocks_ * 512 / bits_per_key;
    built_ = true;
    ++builds_;
    negatives_ = false_positives_ = 0;
    // Fewer than half of the keys it can hold: room for as many again before the next scan. More:
    // off (every answer "maybe"), and looked at again after as many puts as it could hold or
    // as the store held, whichever is more, so that scans stay at most one per key put.
    on_ = n <= capacity / 2;
    if (!on_) {
        words_.clear();
        words_.shrink_to_fit();
        room_ = std::max(capacity, n);
        return;
    }
    for (const std::uint64_t h : hashes) set(h);
    room_ = capacity - n;
}

void parked_key_filter::set(std::uint64_t h) {
    std::uint64_t* block = &words_[static_cast<std::size_t>((h >> 32) * blocks_ >> 32) * block_words];
    std::uint64_t g = mix(h);
    for (int i = 0; i < probes; ++i, g >>= 9) block[(g >> 6) & 7] |= std::uint64_t{1} << (g & 63);
}

bool parked_key_filter::test(std::uint64_t h) const {
    const std::uint64_t* block = &words_[static_cast<std::size_t>((h >> 32) * blocks_ >> 32) * block_words];
    std::uint64_t g = mix(h);
    for (int i = 0; i < probes; ++i, g >>= 9)
        if (!(block[(g >> 6) & 7] & (std::uint64_t{1} << (g & 63)))) return false;
    return true;
}

bool parked_key_filter::may_hold(std::string_view key) const {
    if (!on_) return true;
    if (test(hash(key))) return true;
    ++negatives_;
    return false;
}

bool parked_key_filter::added(std::string_view key) {
    if (on_) set(hash(key));
    if (room_ > 0) --room_;
    return room_ == 0;
}

}  // namespace kstreams::dsl_detail
