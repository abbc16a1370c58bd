#include "harness.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <stdexcept>

#include <kstreams/metrics.hpp>
#include <kstreams/serde.hpp>

namespace conformance {

namespace {

std::string encode(type t, const datum& d) {
    std::string out;
    switch (t) {
        case type::s: kstreams::serde<std::string>{}.serialize(std::get<std::string>(d), out); break;
        case type::l: kstreams::serde<std::int64_t>{}.serialize(std::get<std::int64_t>(d), out); break;
        case type::i: kstreams::serde<std::int32_t>{}.serialize(std::get<std::int32_t>(d), out); break;
        case type::d: kstreams::serde<double>{}.serialize(std::get<double>(d), out); break;
        case type::b:
        case type::x: out = std::get<std::string>(d); break;
    }
    return out;
}

/// As Java's Double.toString for the plain-notation range (1e-3 <= |v| < 1e7): the shortest
/// digits that read back, always with a fraction.
std::string show_double(double v) {
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed);
    std::string s(buf, r.ptr);
    if (s.find('.') == std::string::npos) s += ".0";
    return s;
}

std::string show(const datum& d) {
    if (std::holds_alternative<std::monostate>(d)) return "<null>";
    if (auto* s = std::get_if<std::string>(&d)) return *s;
    if (auto* l = std::get_if<std::int64_t>(&d)) return std::to_string(*l);
    if (auto* x = std::get_if<double>(&d)) return show_double(*x);
    return std::to_string(std::get<std::int32_t>(d));
}

std::string show_bytes(type t, const std::optional<std::string>& b) {
    if (!b) return "<null>";
    switch (t) {
        case type::s: return kstreams::serde<std::string>{}.deserialize(*b);
        case type::l: return std::to_string(kstreams::serde<std::int64_t>{}.deserialize(*b));
        case type::i: return std::to_string(kstreams::serde<std::int32_t>{}.deserialize(*b));
        case type::d: return show_double(kstreams::serde<double>{}.deserialize(*b));
        case type::b: return *b;
        case type::x: {
            static constexpr char digits[] = "0123456789abcdef";
            std::string hex;
            for (unsigned char c : *b) {
                hex.push_back(digits[c >> 4]);
                hex.push_back(digits[c & 15]);
            }
            return hex;
        }
    }
    return "?";
}

/// "" without headers, else "|k=v,k=v" in header order, as Harness.java prints them; `errors`
/// shows only the keys of the error headers that hold Java's class names and stack traces.
std::string show_headers(const kstreams::headers& hs, bool errors = false) {
    std::string out;
    for (const auto& h : hs) {
        out += (out.empty() ? "|" : ",") + h.key;
        if (!errors || (h.key != "__streams.errors.exception" && h.key != "__streams.errors.message" &&
                        h.key != "__streams.errors.stacktrace"))
            out += "=" + h.value.value_or("<null>");
    }
    return out;
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) out.push_back(l);
    return out;
}

/// A line diff ("-" expected only, "+" actual only), from the longest common subsequence.
std::string diff(const std::vector<std::string>& a, const std::vector<std::string>& b) {
    const std::size_t n = a.size(), m = b.size();
    std::vector<std::vector<std::size_t>> lcs(n + 1, std::vector<std::size_t>(m + 1, 0));
    for (std::size_t i = n; i-- > 0;)
        for (std::size_t j = m; j-- > 0;)
            lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
    std::string out;
    std::size_t i = 0, j = 0;
    while (i < n || j < m) {
        if (i < n && j < m && a[i] == b[j]) {
            out += "  " + a[i] + "\n";
            ++i, ++j;
        } else if (j < m && (i == n || lcs[i][j + 1] >= lcs[i + 1][j])) {
            out += "+ " + b[j++] + "\n";
        } else {
            out += "- " + a[i++] + "\n";
        }
    }
    return out;
}

}  // namespace

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> out;
    std::string::size_type start = 0;
    for (;;) {
        const auto p = s.find(sep, start);
        out.push_back(s.substr(start, p == std::string::npos ? std::string::npos : p - start));
        if (p == std::string::npos) return out;
        start = p + 1;
    }
}

// The shared input sets (Main.tableInputs / Main.userMoves on the Java side).
void table_inputs(harness& h) {
    h.pipe("in", S("a"), S("1"), 10);
    h.pipe("in", S("a"), S("1"), 11);
    h.pipe("in", S("a"), S("1"), 5);
    h.pipe("in", S("a"), S("1"), 5);
    h.pipe("in", S("b"), null, 12);
    h.pipe("in", S("a"), S("22"), 13);
    h.pipe("in", S("c"), S("333"), 14);
    h.pipe("in", null, S("4"), 15);
    h.pipe("in", S("a"), null, 16);
    h.pipe("in", S("a"), null, 17);
    h.pipe("in", S("c"), S("3"), 18);
}

void user_moves(harness& h) {
    h.pipe("users", S("alice"), S("eu"), 10);
    h.pipe("users", S("bob"), S("eu"), 20);
    h.pipe("users", S("alice"), S("us"), 15);
    h.pipe("users", S("bob"), S("eu"), 30);
    h.pipe("users", S("carol"), null, 40);
    h.pipe("users", S("alice"), null, 50);
    h.pipe("users", S("bob"), S("us"), 5);
}

std::optional<std::string> fk(const std::string& v) {
    if (v.rfind("none", 0) == 0) return std::nullopt;
    return v.substr(0, v.find(':'));
}

void fk_orders(harness& h) {
    h.pipe("customers", S("c1"), S("Alice"), 5);
    h.pipe("orders", S("o1"), S("c1:apple"), 10);
    h.pipe("orders", S("o2"), S("c2:pear"), 12);
    h.pipe("customers", S("c2"), S("Bob"), 15);
    h.pipe("orders", S("o3"), S("c1:plum"), 20);
    h.pipe("customers", S("c1"), S("Alicia"), 25);
    h.pipe("orders", S("o1"), S("c2:apple"), 30);
    h.pipe("customers", S("c1"), null, 35);
    h.pipe("orders", S("o3"), null, 40);
    h.pipe("orders", S("o4"), S("none"), 45);
    h.pipe("orders", S("o4"), S("c2:fig"), 50);
    h.pipe("orders", S("o4"), S("none2"), 55);
    h.pipe("customers", S("c2"), S("Robert"), 60);
    h.pipe("orders", S("o2"), S("c2:pear"), 58);
    h.pipe("customers", null, S("Nobody"), 61);
    h.pipe("orders", null, S("c2:nut"), 62);
    h.pipe("customers", S("c3"), S("Carl"), 3);
    h.pipe("orders", S("o5"), S("c3:kiwi"), 4);
    h.pipe("orders", S("o5"), S("c3:lime"), 6);
    h.pipe("orders", S("o5"), null, 70);
    h.pipe("orders", S("o6"), null, 71);
    h.pipe("customers", S("c2"), null, 72);
    h.pipe("customers", S("c2"), S("Bo"), 73);
    h.pipe("orders", S("o1"), S("c1:apple"), 74);
    h.pipe("customers", S("c1"), S("Al"), 75);
}

void session_inputs(harness& h) {
    h.pipe("in", S("a"), S("s0"), 0);
    h.pipe("in", S("a"), S("s5"), 5);
    h.pipe("in", S("a"), S("s30"), 30);
    h.pipe("in", S("a"), S("s20"), 20);
    h.pipe("in", S("a"), S("s12"), 12);
    h.pipe("in", S("b"), S("t10"), 10);
    h.pipe("in", S("b"), S("t10b"), 10);
    h.pipe("in", S("a"), S("s60"), 60);
    h.pipe("in", S("a"), S("s34"), 34);
    h.pipe("in", S("c"), S("u45"), 45);
    h.pipe("in", S("c"), S("u44"), 44);
    h.pipe("in", S("d"), S("x44"), 44);
    h.pipe("in", S("a"), null, 61);
    h.pipe("in", null, S("vnull"), 61);
    h.pipe("in", S("b"), S("t80"), 80);
    h.pipe("in", S("b"), S("t71"), 71);
}

harness::harness(std::string scenario, kstreams::topology t) : harness(std::move(scenario), std::move(t), {}) {}

harness::harness(std::string scenario, kstreams::topology t, std::map<std::string, std::string> properties)
    : scenario_(std::move(scenario)), topo_(std::make_unique<kstreams::topology>(std::move(t))) {
    lines_.push_back("scenario " + scenario_);
    lines_.push_back("topology");
    for (auto& l : lines_of(topo_->describe().to_string())) lines_.push_back(l);
    lines_.push_back("end topology");
    properties["application.id"] = "conformance";
    kstreams::test::driver_config c = kstreams::test::driver_config::from_properties(properties);
    c.initial_wall_clock_ms = 0;
    driver_ = std::make_unique<kstreams::test::topology_test_driver>(*topo_, c);
}

harness::~harness() = default;

harness& harness::input(const std::string& topic, type k, type v) {
    inputs_.push_back({topic, k, v});
    return *this;
}

harness& harness::output(const std::string& topic, type k, type v) {
    outputs_.push_back({topic, k, v});
    return *this;
}

harness& harness::error_output(const std::string& topic, type k, type v) {
    outputs_.push_back({topic, k, v, true});
    return *this;
}

void harness::pipe(const std::string& topic, const datum& key, const datum& value, std::int64_t ts,
                   const std::vector<std::string>& headers) {
    auto in = std::find_if(inputs_.begin(), inputs_.end(), [&](const topic_types& t) { return t.topic == topic; });
    if (in == inputs_.end()) throw std::invalid_argument("conformance: no input topic " + topic + " declared");
    kstreams::headers hs;
    for (const auto& h : headers) {
        const auto eq = h.find('=');
        hs.add(h.substr(0, eq), h.substr(eq + 1));
    }
    lines_.push_back("> " + topic + "|" + show(key) + "|" + show(value) + "|" + std::to_string(ts) + show_headers(hs));
    std::optional<std::string> k, v;
    if (!std::holds_alternative<std::monostate>(key)) k = encode(in->key, key);
    if (!std::holds_alternative<std::monostate>(value)) v = encode(in->value, value);
    driver_->pipe_raw(topic, std::move(k), std::move(v), ts, hs);
    print_outputs();
}

void harness::dropped() {
    const auto& m = driver_->metrics();
    const auto total = m.value(kstreams::metric::dropped_records) + m.value(kstreams::metric::skipped_deserialization) +
                       m.value(kstreams::metric::skipped_invalid_timestamp);
    lines_.push_back("# dropped-records-total " + std::to_string(total));
}

void harness::advance_wall_clock(std::int64_t ms) {
    lines_.push_back("@ wall +" + std::to_string(ms));
    driver_->advance_wall_clock_time(std::chrono::milliseconds(ms));
    print_outputs();
}

void harness::print_outputs() {
    for (const auto& o : outputs_) {
        auto& q = driver_->produced(o.topic);
        for (const auto& r : q)
            lines_.push_back("< " + o.topic + "|" + show_bytes(o.key, r.key) + "|" + show_bytes(o.value, r.value) + "|" +
                             // No timestamp of its own (a suppress buffer's changelog): Java's null.
                             (r.timestamp < 0 ? std::string("null") : std::to_string(r.timestamp)) +
                             show_headers(r.headers, o.errors));
        q.clear();
    }
}

void harness::finish() {
    lines_.push_back("produced topics");
    const auto names = driver_->produced_topic_names();
    for (const auto& n : std::set<std::string>(names.begin(), names.end())) lines_.push_back(n);
    const std::string path = std::string(KSTREAMS_CONFORMANCE_EXPECTED_DIR) + "/" + scenario_ + ".txt";
    std::ifstream f(path);
    REQUIRE_MESSAGE(f.good(), "no expected file " << path << " (run tests/conformance/generate.sh)");
    std::stringstream text;
    text << f.rdbuf();
    const auto expected = lines_of(text.str());
    // KSTREAMS_CONFORMANCE_ACTUAL_DIR=<dir>: also write what kstreams printed, for `diff -u`.
    if (const char* dir = std::getenv("KSTREAMS_CONFORMANCE_ACTUAL_DIR")) {
        std::ofstream a(std::string(dir) + "/" + scenario_ + ".txt");
        for (const auto& l : lines_) a << l << '\n';
    }
    const std::vector<std::string>& want = expected;
    const bool same = want == lines_;
    CHECK_MESSAGE(same, "scenario " << scenario_ << " differs from Java Kafka Streams (- java, + kstreams):\n"
                                     << diff(want, lines_));
}

}  // namespace conformance
