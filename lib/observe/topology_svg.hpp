// The topology as an SVG picture laid out without Graphviz (the status page's /topology).
#pragma once

#include <string>

#include <kstreams/topology_render.hpp>

namespace kstreams::detail {

std::string topology_svg(const topology& t, const render_options& options);

}  // namespace kstreams::detail
