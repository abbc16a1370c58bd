#include "lib/runtime/held_marks.hpp"

#include <algorithm>
#include <climits>

#include "lib/runtime/metadata_text.hpp"

namespace kstreams::detail {

void held_marks::release(std::int64_t watermark) {
    std::erase_if(live_, [watermark](const auto& e) { return e.second <= watermark; });
}

void held_marks::encode(std::string& out, std::int64_t committed) const {
    std::vector<std::int64_t> named;
    for (auto it = live_.lower_bound(committed); it != live_.end(); ++it) named.push_back(it->first);
    const auto from = std::lower_bound(recovered_.begin(), recovered_.end(), committed);
    const std::size_t mine = named.size();
    named.insert(named.end(), from, recovered_.end());
    std::inplace_merge(named.begin(), named.begin() + static_cast<std::ptrdiff_t>(mine), named.end());
    named.erase(std::unique(named.begin(), named.end()), named.end());
    std::int64_t unknown_from = std::max(unknown_from_, committed), unknown_to = unknown_to_;
    if (named.size() > max_named) {
        // Past the last one named, the restart cannot know.
        named.resize(max_named);
        unknown_from = unknown_from < unknown_to ? std::min(unknown_from, named.back() + 1) : named.back() + 1;
        unknown_to = INT64_MAX;
    }
    const bool unknown = unknown_from < unknown_to;
    if (named.empty() && !unknown) return;
    out += '/';
    for (std::size_t i = 0; i < named.size(); ++i) {
        if (i > 0) out += '.';
        out += std::to_string(i == 0 ? named[i] : named[i] - named[i - 1]);
    }
    if (!unknown) return;
    out += '*';
    out += std::to_string(unknown_from);
    out += '-';
    out += std::to_string(unknown_to);
}

bool held_marks::decode(std::string_view& in) {
    using namespace metadata_text;
    recovered_.clear();
    unknown_from_ = unknown_to_ = 0;
    if (!in.empty() && in.front() >= '0' && in.front() <= '9') {
        std::int64_t offset = 0;
        if (!read_int(in, offset)) return false;
        recovered_.push_back(offset);
        for (std::int64_t step = 0; read_char(in, '.');) {
            if (!read_int(in, step) || step <= 0 || recovered_.back() > INT64_MAX - step) return false;
            recovered_.push_back(recovered_.back() + step);
        }
    }
    if (read_char(in, '*') && (!read_int(in, unknown_from_) || !read_char(in, '-') || !read_int(in, unknown_to_)))
        return false;
    return true;
}

std::optional<bool> held_marks::take(std::int64_t offset) {
    // Offsets come again in order: what the commit could not say is now before this one or this run's.
    if (offset >= unknown_from_ && offset < unknown_to_) {
        unknown_from_ = offset + 1;
        return std::nullopt;
    }
    const auto it = std::lower_bound(recovered_.begin(), recovered_.end(), offset);
    if (it == recovered_.end() || *it != offset) return false;
    recovered_.erase(it);
    return true;
}

}  // namespace kstreams::detail
