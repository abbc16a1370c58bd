// The C++ half of the conformance suite: runs a scenario through kstreams' test driver and prints
// it in the line format of java/src/main/java/kstreams/conformance/Harness.java, then compares the
// text line by line with expected/<scenario>.txt (generated from Java Kafka Streams).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <kstreams/topology.hpp>
#include <kstreams/test/topology_test_driver.hpp>

namespace conformance {

/// Kafka's String, Long, Integer, Double and ByteArray serdes (byte arrays are given and shown
/// as UTF-8 text; `x` reads byte arrays and shows them in hex, for windowed keys).
enum class type { s, l, i, d, b, x };

/// An input key or value; monostate is Kafka's null.
using datum = std::variant<std::monostate, std::string, std::int64_t, std::int32_t, double>;
inline const datum null{};
inline datum S(std::string s) { return datum(std::move(s)); }
inline datum L(std::int64_t v) { return datum(v); }
inline datum I(std::int32_t v) { return datum(v); }
inline datum D(double v) { return datum(v); }

class harness {
public:
    harness(std::string scenario, kstreams::topology t);
    /// With Kafka Streams properties for the driver (driver_config::from_properties), as
    /// Harness.java's `extra` properties.
    harness(std::string scenario, kstreams::topology t, std::map<std::string, std::string> properties);
    ~harness();
    harness& input(const std::string& topic, type k, type v);
    harness& output(const std::string& topic, type k, type v);
    /// A dead-letter queue topic: as output, but the headers `__streams.errors.exception`,
    /// `.message` and `.stacktrace` (Java's class names and stack traces) show their keys only.
    harness& error_output(const std::string& topic, type k, type v);
    /// `headers` are "key=value" strings; records with headers print them as "|k=v,k=v".
    void pipe(const std::string& topic, const datum& key, const datum& value, std::int64_t ts,
              const std::vector<std::string>& headers = {});
    /// Prints a line of the scenario's own (e.g. "! " and an error's message), as Harness.line.
    void line(const std::string& text) { lines_.push_back(text); }
    /// "# dropped-records-total n": records dropped by processors (null keys and values, late
    /// records, ...) and skipped at the sources so far, as Kafka's task-level
    /// dropped-records-total metrics summed over the tasks (Harness.dropped).
    void dropped();
    /// Advances the driver's wall clock: "@ wall +ms", then the records it caused.
    void advance_wall_clock(std::int64_t ms);
    /// The driver, for reading its stores as a test would (Harness.driver).
    kstreams::test::topology_test_driver& driver() { return *driver_; }
    /// Lists the produced topics and compares the whole text with the expected file (a doctest
    /// check that shows a diff on mismatch).
    void finish();

private:
    void print_outputs();

    struct topic_types {
        std::string topic;
        type key;
        type value;
        bool errors = false;
    };
    std::string scenario_;
    std::unique_ptr<kstreams::topology> topo_;
    std::unique_ptr<kstreams::test::topology_test_driver> driver_;
    std::vector<topic_types> inputs_;
    std::vector<topic_types> outputs_;
    std::vector<std::string> lines_;
};

/// Main.tableInputs: updates, repeats, out-of-order and null-keyed records and tombstones on "in".
void table_inputs(harness& h);
/// WindowKindScenarios.sessionInputs: sessions with a 10 ms gap (extend, merge three, same
/// instant, the grace boundary, null key and value) on "in".
void session_inputs(harness& h);
/// Main.userMoves: users moving between regions (with tombstones) on "users".
void user_moves(harness& h);

/// FkJoinScenarios.fk: "fk:payload" -> fk; "none..." -> no foreign key.
std::optional<std::string> fk(const std::string& v);
/// FkJoinScenarios.orders: orders ("customer:item") against customers, on "orders" and
/// "customers".
void fk_orders(harness& h);

/// Splits as Java's String.split(sep, -1): empty parts kept, "" gives one empty part.
std::vector<std::string> split(const std::string& s, char sep);

}  // namespace conformance
