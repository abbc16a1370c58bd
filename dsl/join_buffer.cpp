#include <kstreams/dsl/detail/join_buffer.hpp>

#include <kstreams/error.hpp>
#include <kstreams/serde.hpp>

namespace kstreams::dsl_detail {

namespace {

void put_bytes(std::string_view b, std::string& out) {
    detail::put_big_endian(static_cast<std::int32_t>(b.size()), out);
    out.append(b);
}

struct reader {
    std::string_view in;
    void need(std::size_t n) const {
        if (in.size() < n) throw deserialization_error("stream-table join buffer: a truncated value");
    }
    template <class Int>
    Int next() {
        need(sizeof(Int));
        Int v = detail::get_big_endian<Int>(in);
        in.remove_prefix(sizeof(Int));
        return v;
    }
    std::string_view bytes(std::size_t n) {
        need(n);
        std::string_view b = in.substr(0, n);
        in.remove_prefix(n);
        return b;
    }
};

}  // namespace

std::string join_buffer_key(std::int64_t timestamp, std::string_view key, std::int32_t seqnum) {
    std::string out;
    out.reserve(13 + key.size());
    out.push_back('\0');  // Kafka's prefix of the time-first key schema
    detail::put_big_endian(timestamp, out);
    out.append(key);
    detail::put_big_endian(seqnum, out);
    return out;
}

namespace {

void check_buffer_key(std::string_view buffer_key) {
    if (buffer_key.size() < 13) throw deserialization_error("stream-table join buffer: a key shorter than 13 bytes");
    if (buffer_key[0] != '\0')
        throw deserialization_error("stream-table join buffer: a key not starting with the time-first prefix 0x00");
}

}  // namespace

std::int64_t join_buffer_key_time(std::string_view buffer_key) {
    check_buffer_key(buffer_key);
    return detail::get_big_endian<std::int64_t>(buffer_key.substr(1));
}

std::string_view join_buffer_key_bytes(std::string_view buffer_key) {
    check_buffer_key(buffer_key);
    return buffer_key.substr(9, buffer_key.size() - 13);
}

std::string join_buffer_value(std::string_view value, std::int64_t timestamp, const record_metadata* md,
                              const headers& hdrs) {
    std::string out;
    // Kafka's ProcessorRecordContext.serialize()
    detail::put_big_endian(timestamp, out);
    detail::put_big_endian<std::int64_t>(md ? md->offset : -1, out);
    put_bytes(md ? md->topic : std::string_view(), out);
    detail::put_big_endian<std::int32_t>(md ? md->partition : -1, out);
    detail::put_big_endian(static_cast<std::int32_t>(hdrs.size()), out);
    for (const header& h : hdrs) {
        put_bytes(h.key, out);
        if (h.value) put_bytes(*h.value, out);
        else detail::put_big_endian<std::int32_t>(-1, out);
    }
    // BufferValue: no prior value, no old value, the new value; then the buffer time (0).
    detail::put_big_endian<std::int32_t>(-1, out);
    detail::put_big_endian<std::int32_t>(-1, out);
    put_bytes(value, out);
    detail::put_big_endian<std::int64_t>(0, out);
    return out;
}

join_buffer_entry read_join_buffer_value(std::string_view bytes) {
    reader r{bytes};
    join_buffer_entry e;
    e.timestamp = r.next<std::int64_t>();
    r.next<std::int64_t>();                                       // offset
    r.bytes(static_cast<std::size_t>(r.next<std::int32_t>()));   // topic
    r.next<std::int32_t>();                                       // partition
    const std::int32_t n = r.next<std::int32_t>();
    // -1: no headers; as Kafka's ProcessorRecordContext, no more than the bytes left can hold (a key
    // and a value length each).
    if (n < -1 || (n > 0 && static_cast<std::size_t>(n) > r.in.size() / 8))
        throw deserialization_error("stream-table join buffer: a header count of " + std::to_string(n) + " with " +
                                    std::to_string(r.in.size()) + " bytes left");
    for (std::int32_t i = 0; i < n; ++i) {
        std::string key(r.bytes(static_cast<std::size_t>(r.next<std::int32_t>())));
        const std::int32_t len = r.next<std::int32_t>();
        if (len < 0) e.hdrs.add(std::move(key), std::nullopt);
        else e.hdrs.add(std::move(key), std::string(r.bytes(static_cast<std::size_t>(len))));
    }
    for (int i = 0; i < 2; ++i) {  // prior and old values: absent here, skipped if present
        const std::int32_t len = r.next<std::int32_t>();
        if (len > 0) r.bytes(static_cast<std::size_t>(len));
    }
    const std::int32_t len = r.next<std::int32_t>();
    if (len < 0) throw deserialization_error("stream-table join buffer: a buffered record without a value");
    e.value = std::string(r.bytes(static_cast<std::size_t>(len)));
    return e;
}

}  // namespace kstreams::dsl_detail
