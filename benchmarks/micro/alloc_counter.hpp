// Counts calls to the global operator new made by the calling thread. The replacement operators
// live in alloc_counter.cpp, linked whole into every benchmark binary; allocations made inside
// libkstreams and libstdc++ resolve to them too. Only the benchmark thread is counted, so RocksDB's
// background threads do not blur the per-record figure.
#pragma once

#include <cstdint>

namespace kstreams::bench {

/// Number of operator new calls (any form) made by this thread so far.
std::uint64_t allocations_on_this_thread() noexcept;

}  // namespace kstreams::bench
