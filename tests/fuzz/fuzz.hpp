// Shared by the libFuzzer targets: bad bytes may get the project's clear error
// (kstreams::deserialization_error, with a message), never anything else: any other exception
// escapes to libFuzzer, which reports it as a crash, as it does sanitizer reports and failed checks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include <kstreams/error.hpp>

namespace fuzz {

[[noreturn]] inline void fail(const char* what, const char* file, int line) {
    std::fprintf(stderr, "fuzz check failed at %s:%d: %s\n", file, line, what);
    std::abort();
}

#define FUZZ_CHECK(cond) ((cond) ? void() : ::fuzz::fail(#cond, __FILE__, __LINE__))

inline std::string_view view(const std::uint8_t* data, std::size_t size) {
    return {reinterpret_cast<const char*>(data), size};
}

/// Runs `decode`; true if it returned, false if it threw the clear error (which must say something).
template <class F>
bool decodes(F&& decode) {
    try {
        decode();
        return true;
    } catch (const kstreams::deserialization_error& e) {
        FUZZ_CHECK(e.what() != nullptr && *e.what() != '\0');
        return false;
    }
}

/// Encodes with `s` into a fresh string.
template <class S, class T>
std::string encode(const S& s, const T& v) {
    std::string out;
    s.serialize(v, out);
    return out;
}

}  // namespace fuzz
