#include "lib/state/versioned_history.hpp"

#include <kstreams/error.hpp>
#include <kstreams/serde.hpp>

namespace kstreams::state {

std::string encode_history(const std::vector<version>& h) {
    std::string out;
    for (const auto& v : h) {
        detail::put_big_endian(v.timestamp, out);
        out.push_back(v.value ? '\x01' : '\x00');
        if (v.value) {
            detail::put_big_endian(static_cast<std::int32_t>(v.value->size()), out);
            out.append(*v.value);
        }
    }
    return out;
}

std::vector<version> decode_history(std::string_view in) {
    std::vector<version> h;
    while (!in.empty()) {
        if (in.size() < 9) throw deserialization_error("versioned store: a truncated version in a key's history");
        version v{detail::get_big_endian<std::int64_t>(in), std::nullopt};
        const char flag = in[8];
        in.remove_prefix(9);
        if (flag != 0 && flag != 1)
            throw deserialization_error("versioned store: a version flag of " + std::to_string(int(flag)) +
                                        " in a key's history (0 or 1 expected)");
        // The readers search the history by timestamp: out of order, it is not one.
        if (!h.empty() && v.timestamp <= h.back().timestamp)
            throw deserialization_error("versioned store: a key's history has timestamp " +
                                        std::to_string(v.timestamp) + " after " + std::to_string(h.back().timestamp));
        if (flag) {
            if (in.size() < 4) throw deserialization_error("versioned store: a truncated value length in a key's history");
            const std::int32_t len = detail::get_big_endian<std::int32_t>(in);
            in.remove_prefix(4);
            if (len < 0 || in.size() < static_cast<std::size_t>(len))
                throw deserialization_error("versioned store: a value of " + std::to_string(len) + " bytes with " +
                                            std::to_string(in.size()) + " left in a key's history");
            v.value.emplace(in.substr(0, static_cast<std::size_t>(len)));
            in.remove_prefix(static_cast<std::size_t>(len));
        }
        h.push_back(std::move(v));
    }
    return h;
}

}  // namespace kstreams::state
