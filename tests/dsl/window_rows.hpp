// What the windowed DSL tests read from "out": (key@start/end, count, timestamp) rows.
#pragma once

#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include <kstreams/dsl.hpp>
#include <kstreams/test/topology_test_driver.hpp>

namespace window_rows {

using rows = std::vector<std::tuple<std::string, std::int64_t, std::int64_t>>;

inline std::string show(const kstreams::windowed<std::string>& w) {
    return w.key + "@" + std::to_string(w.window.start) + "/" + std::to_string(w.window.end);
}

/// Everything written to "out" (string keys, int64 values) since the last read.
inline rows read(kstreams::test::topology_test_driver& d) {
    rows out;
    for (const auto& r : d.create_output_topic<std::string, std::int64_t>("out").read_records_to_list())
        out.emplace_back(r.key, r.value, r.timestamp);
    return out;
}

}  // namespace window_rows
