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

/// Kafka's ProcessorRecordContext.deserialize.
buffered_context read_context(reader& r) {
    buffered_context c;
    c.timestamp = r.i64();
    c.offset = r.i64();
    auto topic = r.nullable();
    if (!topic) throw deserialization_error("suppress buffer changelog: null topic");
    c.topic = std::move(*topic);
    c.partition = r.i32();
    const std::int32_t count = r.i32();
    // -1: no headers (older versions); as Kafka's ProcessorRecordContext, no more than the bytes
    // left can hold (a key and a value length each).
    if (count < -1 || (count > 0 && static_cast<std::size_t>(count) > r.left() / 8))
        throw deserialization_error("suppress buffer changelog: a header count of " + std::to_string(count) +
                                    " with " + std::to_string(r.left()) + " bytes left");
    for (std::int32_t i = 0; i < count; ++i) {
        auto key = r.nullable();
        if (!key) throw deserialization_error("suppress buffer changelog: null header key");
        c.hdrs.add(std::move(*key), r.nullable());
    }
    return c;
}

/// The old and new value of versions 0-2, which wrote a change as one array (Kafka's
/// FullChangeSerde legacy format: old, then new, each with its length).
struct legacy_change {
    std::optional<std::string> old_value, new_value;
};
legacy_change read_legacy_change(const std::optional<std::string>& array) {
    if (!array) throw deserialization_error("suppress buffer changelog: null change");
    reader in(*array);
    legacy_change c;
    c.old_value = in.nullable();
    c.new_value = in.nullable();
    return c;
}

/// Version 2: record context, the change as one array, prior value, buffer time.
std::pair<std::int64_t, suppress_buffer_value> decode_v2(std::string_view bytes) {
    reader r(bytes);
    suppress_buffer_value v;
    v.context = read_context(r);
    legacy_change c = read_legacy_change(r.nullable());
    v.prior = r.nullable();
    v.old_value = std::move(c.old_value);
    v.new_value = std::move(c.new_value);
    const std::int64_t time = r.i64();
    return {time, std::move(v)};
}

}  // namespace

std::pair<std::int64_t, suppress_buffer_value> decode_suppress_changelog_record(
    std::string_view value, const headers& hdrs, const buffered_context& origin,
    const std::optional<std::optional<std::string>>& buffered_prior) {
    const header* version = hdrs.last("v");
    if (version && version->value == std::string(1, '\x03')) return decode_suppress_changelog_value(value);
    if (version && version->value == std::string(1, '\x02')) {
        try {
            return decode_v2(value);
        } catch (const deserialization_error& v2) {
            try {
                return decode_suppress_changelog_value(value);
            } catch (const deserialization_error& v3) {
                throw deserialization_error(std::string("suppress buffer changelog: a version 2 record is neither "
                                                        "version 2 (") + v2.what() + ") nor version 3 (" + v3.what() + ")");
            }
        }
    }
    if (version && version->value != std::string(1, '\x01')) {
        std::string shown;
        for (char c : version->value.value_or("null")) shown += std::to_string(static_cast<unsigned char>(c)) + " ";
        throw deserialization_error("suppress buffer changelog: unknown version header v = [ " + shown + "]");
    }
    // Versions 0 and 1: buffer time first.
    reader r(value);
    const std::int64_t time = r.i64();
    suppress_buffer_value v;
    legacy_change c;
    if (version) {
        v.context = read_context(r);
        c = read_legacy_change(r.nullable());
    } else {
        v.context = origin;
        c = read_legacy_change(std::string(r.take(r.left())));
    }
    v.prior = buffered_prior && *buffered_prior ? *buffered_prior : c.old_value;
    v.old_value = std::move(c.old_value);
    v.new_value = std::move(c.new_value);
    return {time, std::move(v)};
}

std::pair<std::int64_t, suppress_buffer_value> decode_suppress_changelog_value(std::string_view bytes) {
    reader r(bytes);
    suppress_buffer_value v;
    v.context = read_context(r);
    v.prior = r.nullable();
    const std::int32_t old_len = r.i32();
    v.old_value = old_len == same_as_prior ? v.prior : r.nullable_of(old_len);
    v.new_value = r.nullable();
    const std::int64_t time = r.i64();
    return {time, std::move(v)};
}


}  // namespace kstreams::dsl_detail
