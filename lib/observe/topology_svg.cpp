// A topology drawn as SVG without Graphviz, for the status page: each sub-topology a band of its
// own, its nodes in columns by their depth (longest path from a source), the topics it reads on
// its left, the topics only written (outputs, changelogs) on its right, stores below the node
// they belong to.
#include "lib/observe/topology_svg.hpp"

#include <algorithm>
#include <map>

#include "lib/observe/topology_graph.hpp"

namespace kstreams::detail {

namespace {

constexpr int box_w = 210, box_h = 34, col_gap = 50, row_gap = 14, band_gap = 24, band_pad = 26;

std::string xml(const std::string& s) {
    std::string out;
    for (char c : s) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            default: out += c;
        }
    }
    return out;
}

const char* fill(vertex_kind k) {
    switch (k) {
        case vertex_kind::source: return "#d5e8d4";
        case vertex_kind::processor: return "#dae8fc";
        case vertex_kind::sink: return "#f8cecc";
        case vertex_kind::topic: return "#fff2cc";
        case vertex_kind::internal_topic: return "#eeeeee";
        case vertex_kind::store: return "#e1d5e7";
    }
    return "#ffffff";
}

struct place {
    int band = 0, column = 0, row = 0;
    int x = 0, y = 0;
};

}  // namespace

std::string topology_svg(const topology& t, const render_options& options) {
    const topology_graph g = build_topology_graph(t, options);
    std::map<std::string, const vertex*> by_id;
    for (const auto& v : g.vertices) by_id[v.id] = &v;
    // Depth of each node inside its band: the longest path from a source over node edges.
    std::map<std::string, int> depth;
    for (const auto& v : g.vertices)
        if (v.cluster >= 0 && v.kind != vertex_kind::store) depth[v.id] = 0;
    for (std::size_t pass = 0; pass < g.vertices.size(); ++pass) {
        bool changed = false;
        for (const auto& e : g.edges)
            if (depth.count(e.from) && depth.count(e.to) && depth[e.to] < depth[e.from] + 1) {
                depth[e.to] = depth[e.from] + 1;
                changed = true;
            }
        if (!changed) break;
    }
    std::map<std::string, place> at;
    std::vector<int> last_column(g.clusters.size(), 0);
    for (const auto& [id, d] : depth) {
        at[id] = {by_id[id]->cluster, d + 1, 0};
        last_column[static_cast<std::size_t>(by_id[id]->cluster)] =
            std::max(last_column[static_cast<std::size_t>(by_id[id]->cluster)], d + 1);
    }
    // Stores under their first connected node; topics beside the band that reads them (left) or
    // else the one that writes them (right).
    for (const auto& e : g.edges) {
        const vertex& from = *by_id[e.from];
        const vertex& to = *by_id[e.to];
        if (to.kind == vertex_kind::store && !at.count(to.id) && at.count(from.id))
            at[to.id] = {to.cluster, at[from.id].column, 0};
        if (from.kind == vertex_kind::store && !at.count(from.id) && at.count(to.id))
            at[from.id] = {from.cluster, at[to.id].column, 0};
    }
    for (const auto& v : g.vertices)
        if (v.kind == vertex_kind::store && !at.count(v.id)) at[v.id] = {v.cluster, 1, 0};
    for (const auto& e : g.edges) {
        const vertex& from = *by_id[e.from];
        const vertex& to = *by_id[e.to];
        const bool from_topic = from.kind == vertex_kind::topic || from.kind == vertex_kind::internal_topic;
        if (from_topic && at.count(to.id) && !at.count(from.id)) at[from.id] = {at[to.id].band, 0, 0};
    }
    for (const auto& e : g.edges) {
        const vertex& to = *by_id[e.to];
        if (!at.count(to.id) && at.count(e.from)) {
            const int band = at[e.from].band;
            at[to.id] = {band, last_column[static_cast<std::size_t>(band)] + 1, 0};
        }
    }
    // Rows: in each band and column, in the order of the vertices.
    std::map<std::pair<int, int>, int> used;
    std::vector<int> rows(g.clusters.size(), 1);
    for (const auto& v : g.vertices) {
        if (!at.count(v.id)) continue;
        place& p = at[v.id];
        p.row = used[{p.band, p.column}]++;
        rows[static_cast<std::size_t>(p.band)] = std::max(rows[static_cast<std::size_t>(p.band)], p.row + 1);
    }
    int max_column = 0;
    for (const auto& [id, p] : at) max_column = std::max(max_column, p.column);
    std::vector<int> band_y(g.clusters.size() + 1, 10);
    for (std::size_t b = 0; b < g.clusters.size(); ++b)
        band_y[b + 1] = band_y[b] + band_pad + rows[b] * (box_h + row_gap) + band_gap;
    for (auto& [id, p] : at) {
        p.x = 10 + p.column * (box_w + col_gap);
        p.y = band_y[static_cast<std::size_t>(p.band)] + band_pad + p.row * (box_h + row_gap);
    }
    const int width = 20 + (max_column + 1) * (box_w + col_gap);
    const int height = band_y.back();

    std::string out = "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"topology\" width=\"" + std::to_string(width) +
                      "\" height=\"" + std::to_string(height) + "\" font-family=\"Helvetica,Arial,sans-serif\" "
                      "font-size=\"11\">\n<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" "
                      "markerWidth=\"7\" markerHeight=\"7\" orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" "
                      "fill=\"#555\"/></marker></defs>\n";
    for (std::size_t b = 0; b < g.clusters.size(); ++b) {
        out += "<g class=\"subtopology\"><rect x=\"4\" y=\"" + std::to_string(band_y[b]) + "\" width=\"" +
               std::to_string(width - 8) + "\" height=\"" + std::to_string(band_y[b + 1] - band_y[b] - band_gap / 2) +
               "\" rx=\"8\" fill=\"none\" stroke=\"#888\"/><text x=\"12\" y=\"" + std::to_string(band_y[b] + 17) +
               "\" font-weight=\"bold\">" + xml(g.clusters[b]) + "</text></g>\n";
    }
    for (const auto& e : g.edges) {
        if (!at.count(e.from) || !at.count(e.to)) continue;
        const place& a = at[e.from];
        const place& z = at[e.to];
        int x1 = a.x + box_w, y1 = a.y + box_h / 2, x2 = z.x, y2 = z.y + box_h / 2;
        if (a.column == z.column) {  // a store under its node
            x1 = a.x + box_w / 2;
            x2 = z.x + box_w / 2;
            y1 = a.y + (a.y < z.y ? box_h : 0);
            y2 = z.y + (a.y < z.y ? 0 : box_h);
        } else if (a.column > z.column) {
            x1 = a.x;
            x2 = z.x + box_w;
        }
        out += "<line x1=\"" + std::to_string(x1) + "\" y1=\"" + std::to_string(y1) + "\" x2=\"" + std::to_string(x2) +
               "\" y2=\"" + std::to_string(y2) + "\" stroke=\"#555\"" + (e.dashed ? " stroke-dasharray=\"4,3\"" : "") +
               (e.arrow ? " marker-end=\"url(#arrow)\"" : "") + "/>\n";
    }
    for (const auto& v : g.vertices) {
        if (!at.count(v.id)) continue;
        const place& p = at[v.id];
        const bool topic = v.kind == vertex_kind::topic || v.kind == vertex_kind::internal_topic;
        out += "<g class=\"vertex " + std::string(topic ? "topic" : v.kind == vertex_kind::store ? "store" : "node") +
               "\" data-id=\"" + xml(v.id) + "\"><rect x=\"" + std::to_string(p.x) + "\" y=\"" + std::to_string(p.y) +
               "\" width=\"" + std::to_string(box_w) + "\" height=\"" + std::to_string(box_h) + "\" rx=\"" +
               (v.kind == vertex_kind::processor ? "10" : v.kind == vertex_kind::store ? "14" : "2") + "\" fill=\"" +
               fill(v.kind) + "\" stroke=\"#666\"" + (v.kind == vertex_kind::internal_topic ? " stroke-dasharray=\"4,3\"" : "") +
               "/>";
        const auto nl = v.label.find('\n');
        const std::string first = v.label.substr(0, nl);
        const std::string second = nl == std::string::npos ? std::string() : v.label.substr(nl + 1);
        const int ty = p.y + (second.empty() ? box_h / 2 + 4 : 14);
        out += "<text x=\"" + std::to_string(p.x + box_w / 2) + "\" y=\"" + std::to_string(ty) +
               "\" text-anchor=\"middle\"" +
               // Long names shrink to fit the box (about 6.3 px per character at 11 px).
               (first.size() > 32 ? " font-size=\"" + std::to_string(std::max<std::size_t>(6, 11 * 32 / first.size())) + "\"" : "") +
               ">" + xml(first) + "</text>";
        if (!second.empty())
            out += "<text class=\"rate\" x=\"" + std::to_string(p.x + box_w / 2) + "\" y=\"" + std::to_string(p.y + 28) +
                   "\" text-anchor=\"middle\" fill=\"#b00\">" + xml(second) + "</text>";
        out += "</g>\n";
    }
    return out + "</svg>\n";
}

}  // namespace kstreams::detail
