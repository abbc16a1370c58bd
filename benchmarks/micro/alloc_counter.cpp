#include "benchmarks/micro/alloc_counter.hpp"

#include <cstdlib>
#include <new>

namespace {

thread_local std::uint64_t allocations = 0;

void* counted_alloc(std::size_t size) {
    ++allocations;
    if (size == 0) size = 1;
    return std::malloc(size);
}

void* counted_aligned_alloc(std::size_t size, std::align_val_t align) {
    ++allocations;
    if (size == 0) size = 1;
    void* p = nullptr;
    const std::size_t a = static_cast<std::size_t>(align) < sizeof(void*) ? sizeof(void*)
                                                                          : static_cast<std::size_t>(align);
    if (posix_memalign(&p, a, size) != 0) return nullptr;
    return p;
}

void* or_throw(void* p) {
    if (!p) throw std::bad_alloc();
    return p;
}

}  // namespace

namespace kstreams::bench {
std::uint64_t allocations_on_this_thread() noexcept { return allocations; }
}  // namespace kstreams::bench

void* operator new(std::size_t n) { return or_throw(counted_alloc(n)); }
void* operator new[](std::size_t n) { return or_throw(counted_alloc(n)); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return counted_alloc(n); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return counted_alloc(n); }
void* operator new(std::size_t n, std::align_val_t a) { return or_throw(counted_aligned_alloc(n, a)); }
void* operator new[](std::size_t n, std::align_val_t a) { return or_throw(counted_aligned_alloc(n, a)); }
void* operator new(std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
    return counted_aligned_alloc(n, a);
}
void* operator new[](std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
    return counted_aligned_alloc(n, a);
}

void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { std::free(p); }
