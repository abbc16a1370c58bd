// How the windowed conformance scenarios show windowed keys and nullable values, as
// WindowScenarios.show in Java: "key@start/end", null as "null".
#pragma once

#include <optional>
#include <string>

#include <kstreams/dsl.hpp>

namespace conformance {

inline std::string show(const kstreams::windowed<std::string>& w) {
    return w.key + "@" + std::to_string(w.window.start) + "/" + std::to_string(w.window.end);
}
inline std::string show(const std::optional<std::string>& v) { return v ? *v : std::string("null"); }

/// The table's changelog to `topic`, keyed by show(window). select_key, not map: sessions
/// replaced by a merge arrive as tombstones, which it keeps.
template <class K, class V>
void show_to(const kstreams::ktable<kstreams::windowed<K>, V>& t, const std::string& topic) {
    t.to_stream().select_key([](const kstreams::windowed<K>& w, const V&) { return show(w); }).to(topic);
}

}  // namespace conformance
