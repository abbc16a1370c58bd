// The suppress buffer's changelog value (see suppress_changelog.hpp).
#include "lib/state/suppress_changelog.hpp"

#include <kstreams/error.hpp>
#include <kstreams/serde.hpp>

namespace kstreams::dsl_detail {

namespace {

constexpr std::int32_t null_length = -1;
constexpr std::int32_t same_as_prior = -2;

void put_i32(std::int32_t v, std::string& out) { kstreams::detail::put_big_endian<std::int32_t>(v, out); }
void put_i64(std::int64_t v, std::string& out) { kstreams::detail::put_big_endian<std::int64_t>(v, out); }
void put_nullable(const std::optional<std::string>& v, std::string& out) {
    if (!v) {
        put_i32(null_length, out);
        return;
    }
    put_i32(static_cast<std::int32_t>(v->size()), out);
    out += *v;
}

}  // namespace

std::string encode_suppress_changelog_value(const suppress_buffer_value& v, std::int64_t time) {
    std::string out;
    const buffered_context& c = v.context;
    put_i64(c.timestamp, out);
    put_i64(c.offset, out);
    put_i32(static_cast<std::int32_t>(c.topic.size()), out);
    out += c.topic;
    put_i32(c.partition, out);
    put_i32(static_cast<std::int32_t>(c.hdrs.size()), out);
    for (const header& h : c.hdrs) {
        put_i32(static_cast<std::int32_t>(h.key.size()), out);
        out += h.key;
        put_nullable(h.value, out);
    }
    put_nullable(v.prior, out);
    if (!v.old_value) put_i32(null_length, out);
    else if (v.prior_is_old()) put_i32(same_as_prior, out);
    else put_nullable(v.old_value, out);
    put_nullable(v.new_value, out);
    put_i64(time, out);
    return out;
}

namespace {

/// Reads what encode wrote; throws deserialization_error on bad bytes.
class reader {
public:
    explicit reader(std::string_view in) : in_(in) {}
    std::int64_t i64() { return kstreams::detail::get_big_endian<std::int64_t>(take(8)); }
    std::int32_t i32() { return kstreams::detail::get_big_endian<std::int32_t>(take(4)); }
    std::string_view take(std::size_t n) {
        if (in_.size() < n) throw deserialization_error("suppress buffer changelog: record too short");
        std::string_view out = in_.substr(0, n);
        in_.remove_prefix(n);
        return out;
    }
    std::optional<std::string> nullable_of(std::int32_t len) {
        if (len == null_length) return std::nullopt;
        if (len < 0) throw deserialization_error("suppress buffer changelog: bad length");
        return std::string(take(static_cast<std::size_t>(len)));
    }
    std::optional<std::string> nullable() { return nullable_of(i32()); }
    std::size_t left() const { return in_.size(); }

private:
    std::string_view in_;
};

}  // namespace

std::pair<std::int64_t, suppress_buffer_value> decode_suppress_changelog_value(std::string_view bytes) {
    reader r(bytes);
    suppress_buffer_value v;
    v.context.timestamp = r.i64();
    v.context.offset = r.i64();
    auto topic = r.nullable();
    if (!topic) throw deserialization_error("suppress buffer changelog: null topic");
    v.context.topic = std::move(*topic);
    v.context.partition = r.i32();
    const std::int32_t count = r.i32();
    // -1: no headers (older versions); as Kafka's ProcessorRecordContext, no more than the bytes
    // left can hold (a key and a value length each).
    if (count < -1 || (count > 0 && static_cast<std::size_t>(count) > r.left() / 8))
        throw deserialization_error("suppress buffer changelog: a header count of " + std::to_string(count) +
                                    " with " + std::to_string(r.left()) + " bytes left");
    for (std::int32_t i = 0; i < count; ++i) {
        auto key = r.nullable();
        if (!key) throw deserialization_error("suppress buffer changelog: null header key");
        v.context.hdrs.add(std::move(*key), r.nullable());
    }
    v.prior = r.nullable();
    const std::int32_t old_len = r.i32();
    v.old_value = old_len == same_as_prior ? v.prior : r.nullable_of(old_len);
    v.new_value = r.nullable();
    const std::int64_t time = r.i64();
    return {time, std::move(v)};
}


}  // namespace kstreams::dsl_detail
