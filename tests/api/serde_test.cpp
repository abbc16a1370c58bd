// Built-in serdes: byte-exact with Kafka's Java serializers, round trips, and clear errors on bad
// bytes; a failure at a source stops processing with the record's coordinates, or is counted and
// skipped under log-and-continue.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include <kstreams/serde.hpp>
#include <kstreams/test/topology_test_driver.hpp>
#include <kstreams/topology.hpp>

using namespace kstreams;

namespace {
std::string hex(std::string_view b) {
    static const char* digits = "0123456789ABCDEF";
    std::string s;
    for (unsigned char c : b) {
        if (!s.empty()) s += ' ';
        s += digits[c >> 4];
        s += digits[c & 15];
    }
    return s;
}

template <class T, class S = serde<T>>
std::string bytes_of(const T& v, const S& s = S{}) {
    return hex(serialize_to_string<T, S>(v, s));
}

template <class T, class S = serde<T>>
T round_trip(const T& v, const S& s = S{}) {
    return s.deserialize(serialize_to_string<T, S>(v, s));
}

/// The message of the deserialization_error that deserializing `bytes` throws.
template <class T, class S = serde<T>>
std::string error_of(std::string_view bytes, const S& s = S{}) {
    try {
        (void)s.deserialize(bytes);
    } catch (const deserialization_error& e) {
        return e.what();
    }
    FAIL("no deserialization_error for " << hex(bytes));
    return {};
}
}  // namespace

TEST_CASE("integers are big-endian two's complement, as Kafka's Short/Integer/LongSerializer") {
    CHECK(bytes_of<std::int16_t>(1) == "00 01");
    CHECK(bytes_of<std::int16_t>(-2) == "FF FE");
    CHECK(bytes_of<std::int32_t>(1) == "00 00 00 01");
    CHECK(bytes_of<std::int32_t>(-1) == "FF FF FF FF");
    CHECK(bytes_of<std::int32_t>(0x12345678) == "12 34 56 78");
    CHECK(bytes_of<std::int32_t>(std::numeric_limits<std::int32_t>::min()) == "80 00 00 00");
    CHECK(bytes_of<std::int64_t>(1) == "00 00 00 00 00 00 00 01");
    CHECK(bytes_of<std::int64_t>(-256) == "FF FF FF FF FF FF FF 00");
    CHECK(bytes_of<std::int64_t>(std::numeric_limits<std::int64_t>::min()) == "80 00 00 00 00 00 00 00");

    for (std::int16_t v : {std::int16_t{0}, std::int16_t{-1}, std::numeric_limits<std::int16_t>::min(),
                           std::numeric_limits<std::int16_t>::max()})
        CHECK(round_trip(v) == v);
    for (std::int32_t v : {0, -1, 42, std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max()})
        CHECK(round_trip(v) == v);
    for (std::int64_t v : {std::int64_t{0}, std::int64_t{-1}, std::int64_t{1} << 40,
                           std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max()})
        CHECK(round_trip(v) == v);
}

TEST_CASE("float and double are IEEE 754 big-endian, as Kafka's Float/DoubleSerializer") {
    CHECK(bytes_of<double>(1.0) == "3F F0 00 00 00 00 00 00");
    CHECK(bytes_of<double>(0.1) == "3F B9 99 99 99 99 99 9A");
    CHECK(bytes_of<double>(-0.0) == "80 00 00 00 00 00 00 00");
    CHECK(bytes_of<float>(1.0f) == "3F 80 00 00");
    CHECK(bytes_of<float>(-2.5f) == "C0 20 00 00");

    for (double v : {0.0, -1.5, 1e300, std::numeric_limits<double>::denorm_min(), std::numeric_limits<double>::infinity()})
        CHECK(round_trip(v) == v);
    CHECK(std::signbit(round_trip(-0.0)));
    CHECK(std::isnan(round_trip(std::numeric_limits<double>::quiet_NaN())));
    for (float v : {0.0f, 3.25f, -std::numeric_limits<float>::max()}) CHECK(round_trip(v) == v);
}

TEST_CASE("strings are their UTF-8 bytes; bytes are themselves; bool is one byte") {
    CHECK(bytes_of<std::string>("hé") == "68 C3 A9");
    CHECK(round_trip(std::string("with\0nul", 8)) == std::string("with\0nul", 8));
    CHECK(round_trip(std::string()).empty());

    const bytes b{std::byte{0x00}, std::byte{0xFF}, std::byte{0x10}};
    CHECK(bytes_of(b) == "00 FF 10");
    CHECK(round_trip(b) == b);
    CHECK(round_trip(bytes{}).empty());

    CHECK(bytes_of(true) == "01");
    CHECK(bytes_of(false) == "00");
    CHECK(round_trip(true));
    CHECK_FALSE(round_trip(false));
}

TEST_CASE("void is always null; optional<T> is null as nullopt and T's bytes otherwise") {
    const serde<void_value> v;
    CHECK(serialize_to_string(void_value{}).empty());
    CHECK(serde_is_null(v, void_value{}));
    CHECK_NOTHROW(v.deserialize(""));

    const serde<std::optional<std::int32_t>> o;
    CHECK(serde_is_null(o, std::optional<std::int32_t>{}));
    CHECK_FALSE(serde_is_null(o, std::optional<std::int32_t>{5}));
    CHECK(bytes_of(std::optional<std::int32_t>{5}) == "00 00 00 05");
    CHECK(round_trip(std::optional<std::int32_t>{-7}) == std::optional<std::int32_t>{-7});
    CHECK(serialize_to_string(std::optional<std::string>{}).empty());

    const optional_serde<std::int64_t, serde<std::int64_t>> wrapped;
    CHECK(serde_is_null(wrapped, std::optional<std::int64_t>{}));
    CHECK(round_trip(std::optional<std::int64_t>{9}, wrapped) == std::optional<std::int64_t>{9});
    CHECK_FALSE(serde_is_null(serde<std::int32_t>{}, 0));  // plain types are never null
}

TEST_CASE("serialize appends to the buffer it is given") {
    std::string out = "x";
    serde<std::int32_t>{}.serialize(1, out);
    serde<std::string>{}.serialize("yz", out);
    CHECK(hex(out) == "78 00 00 00 01 79 7A");
}

TEST_CASE("bad bytes give a deserialization_error that says what was expected") {
    const std::string m32 = error_of<std::int32_t>("abc");
    CHECK(m32.find("int32") != std::string::npos);
    CHECK(m32.find("3 bytes") != std::string::npos);
    CHECK(m32.find("expected 4") != std::string::npos);
    CHECK(error_of<std::int32_t>("").find("0 bytes") != std::string::npos);
    CHECK(error_of<std::int32_t>("abcde").find("5 bytes") != std::string::npos);
    CHECK(error_of<std::int16_t>("a").find("expected 2") != std::string::npos);
    CHECK(error_of<std::int64_t>("123456789").find("expected 8") != std::string::npos);
    CHECK(error_of<std::int64_t>("1234").find("int64") != std::string::npos);
    CHECK(error_of<float>("12345678").find("expected 4") != std::string::npos);
    CHECK(error_of<double>("1234").find("double") != std::string::npos);
    CHECK(error_of<bool>(std::string_view("\x02", 1)).find("neither 0 nor 1") != std::string::npos);
    CHECK(error_of<bool>(std::string_view("\x01\x01", 2)).find("expected 1") != std::string::npos);
    CHECK(error_of<bool>("").find("0 bytes") != std::string::npos);
    CHECK(error_of<void_value>("a").find("accepts only null") != std::string::npos);
    CHECK(error_of<std::optional<std::int32_t>>("ab").find("expected 4") != std::string::npos);
}

namespace {
topology int_values() {
    topology t;
    t.add_source<std::string, std::int32_t>("numbers-source", {"numbers"})
        .add_sink<std::string, std::int32_t>("sink", "out", {"numbers-source"});
    return t;
}
std::string four(std::int32_t v) { return serialize_to_string(v); }
}  // namespace

TEST_CASE("a value that cannot be deserialized at a source stops with topic, partition, offset and source") {
    auto t = int_values();
    test::topology_test_driver driver(t);
    driver.pipe_raw("numbers", "k", four(1), 10);
    try {
        driver.pipe_raw("numbers", "k", std::string("xyz"), 11);
        FAIL("no error");
    } catch (const streams_error& e) {
        const std::string m = e.what();
        INFO(m);
        CHECK(m.find("value") != std::string::npos);
        CHECK(m.find("topic numbers") != std::string::npos);
        CHECK(m.find("partition 0") != std::string::npos);
        CHECK(m.find("offset 1") != std::string::npos);
        CHECK(m.find("source numbers-source") != std::string::npos);
        CHECK(m.find("expected 4") != std::string::npos);
    }
    CHECK(driver.metrics().value(metric::skipped_deserialization) == 0);
}

TEST_CASE("a key that cannot be deserialized names the key") {
    topology t;
    t.add_source<std::int64_t, std::string>("keyed", {"in"}).add_sink<std::int64_t, std::string>("sink", "out", {"keyed"});
    test::topology_test_driver driver(t);
    try {
        driver.pipe_raw("in", std::string("short"), std::string("v"), 1);
        FAIL("no error");
    } catch (const streams_error& e) {
        const std::string m = e.what();
        CHECK(m.find("key") != std::string::npos);
        CHECK(m.find("offset 0") != std::string::npos);
        CHECK(m.find("source keyed") != std::string::npos);
    }
}

TEST_CASE("log-and-continue skips a bad record, counts it, and goes on") {
    auto t = int_values();
    test::driver_config config;
    config.log_and_continue_on_deserialization_error = true;
    test::topology_test_driver driver(t, config);
    auto out = driver.create_output_topic<std::string, std::int32_t>("out");
    driver.pipe_raw("numbers", "a", four(1), 1);
    driver.pipe_raw("numbers", "b", std::string("xyz"), 2);
    driver.pipe_raw("numbers", "c", std::string(), 3);
    driver.pipe_raw("numbers", "d", four(4), 4);
    CHECK(out.read_key_values_to_list() == std::vector<key_value<std::string, std::int32_t>>{{"a", 1}, {"d", 4}});
    CHECK(driver.metrics().value(metric::skipped_deserialization) == 2);
}

TEST_CASE("null bytes are never deserialized: they arrive as null flags or nullopt") {
    auto t = int_values();
    test::topology_test_driver driver(t);
    auto out = driver.create_output_topic<std::string, std::optional<std::int32_t>>("out");
    driver.pipe_raw("numbers", std::nullopt, std::nullopt, 5);
    auto r = out.read_record();
    CHECK(r.key_null);
    CHECK(r.value_null);
    CHECK_FALSE(r.value.has_value());
}
