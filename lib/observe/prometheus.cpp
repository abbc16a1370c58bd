// Prometheus text exposition format 0.0.4
// (https://prometheus.io/docs/instrumenting/exposition_formats/): a family's samples together,
// after its HELP and TYPE lines.
#include <kstreams/metric_samples.hpp>

#include <charconv>
#include <cmath>
#include <map>

namespace kstreams {

namespace {

std::string sanitized(std::string_view s, bool colons) {
    std::string out;
    out.reserve(s.size() + 1);
    for (char c : s) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
                        (colons && c == ':');
        out += ok ? c : '_';
    }
    if (out.empty() || (out[0] >= '0' && out[0] <= '9')) out.insert(out.begin(), '_');
    return out;
}

/// HELP text: backslash and line feed escaped; label values: the double quote as well.
std::string escaped(std::string_view s, bool quotes) {
    std::string out;
    out.reserve(s.size());
    for (char c : s) {
        if (c == '\\') out += "\\\\";
        else if (c == '\n') out += "\\n";
        else if (quotes && c == '"') out += "\\\"";
        else out += c;
    }
    return out;
}

std::string number(double v) {
    if (std::isnan(v)) return "NaN";
    if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
    char buf[64];
    const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
    return ec == std::errc{} ? std::string(buf, end) : std::string("NaN");
}

}  // namespace

std::string prometheus_name(std::string_view name) { return sanitized(name, true); }

std::string to_prometheus(const std::vector<metric_sample>& samples, std::string_view prefix) {
    // Families by exposed name, in order; samples keep their order within a family.
    std::map<std::string, std::vector<const metric_sample*>> families;
    for (const auto& s : samples) {
        std::string name = std::string(prefix).append(prefix.empty() ? "" : "_") + s.group + "_" + s.name;
        families[prometheus_name(name)].push_back(&s);
    }
    std::string out;
    for (const auto& [name, members] : families) {
        const metric_sample& first = *members.front();
        out += "# HELP " + name + " " + escaped(first.description.empty() ? first.name : first.description, false) +
               "\n";
        out += "# TYPE " + name + (first.kind == metric_kind::counter ? " counter\n" : " gauge\n");
        for (const metric_sample* s : members) {
            out += name;
            if (!s->tags.empty()) {
                out += '{';
                bool comma = false;
                for (const auto& [k, v] : s->tags) {
                    if (comma) out += ',';
                    comma = true;
                    out += sanitized(k, false) + "=\"" + escaped(v, true) + "\"";
                }
                out += '}';
            }
            out += ' ' + number(s->value) + '\n';
        }
    }
    return out;
}

}  // namespace kstreams
