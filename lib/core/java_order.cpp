#include "lib/core/java_order.hpp"

#include <algorithm>
#include <numeric>

namespace kstreams::detail::java {

std::u16string to_utf16(std::string_view s) {
    std::u16string out;
    out.reserve(s.size());
    std::size_t i = 0;
    auto cont = [&](std::size_t k) { return k < s.size() && (static_cast<unsigned char>(s[k]) & 0xC0) == 0x80; };
    while (i < s.size()) {
        const auto c = static_cast<unsigned char>(s[i]);
        char32_t cp = 0xFFFD;
        std::size_t len = 1;
        if (c < 0x80) {
            cp = c;
        } else if ((c & 0xE0) == 0xC0 && cont(i + 1)) {
            cp = ((c & 0x1Fu) << 6) | (static_cast<unsigned char>(s[i + 1]) & 0x3Fu);
            len = 2;
        } else if ((c & 0xF0) == 0xE0 && cont(i + 1) && cont(i + 2)) {
            cp = ((c & 0x0Fu) << 12) | ((static_cast<unsigned char>(s[i + 1]) & 0x3Fu) << 6) |
                 (static_cast<unsigned char>(s[i + 2]) & 0x3Fu);
            len = 3;
        } else if ((c & 0xF8) == 0xF0 && cont(i + 1) && cont(i + 2) && cont(i + 3)) {
            cp = ((c & 0x07u) << 18) | ((static_cast<unsigned char>(s[i + 1]) & 0x3Fu) << 12) |
                 ((static_cast<unsigned char>(s[i + 2]) & 0x3Fu) << 6) | (static_cast<unsigned char>(s[i + 3]) & 0x3Fu);
            len = 4;
        }
        i += len;
        if (cp >= 0x10000) {
            cp -= 0x10000;
            out.push_back(static_cast<char16_t>(0xD800 + (cp >> 10)));
            out.push_back(static_cast<char16_t>(0xDC00 + (cp & 0x3FF)));
        } else {
            out.push_back(static_cast<char16_t>(cp));
        }
    }
    return out;
}

std::int32_t string_hash(std::string_view s) {
    std::uint32_t h = 0;
    for (char16_t c : to_utf16(s)) h = 31 * h + c;
    return static_cast<std::int32_t>(h);
}

int compare(std::string_view a, std::string_view b) {
    const std::u16string x = to_utf16(a), y = to_utf16(b);
    const std::size_t n = std::min(x.size(), y.size());
    for (std::size_t i = 0; i < n; ++i)
        if (x[i] != y[i]) return static_cast<int>(x[i]) - static_cast<int>(y[i]);
    return static_cast<int>(x.size()) - static_cast<int>(y.size());
}

std::vector<std::string> hash_set_order(const std::vector<std::string>& items, bool from_collection) {
    // Distinct items, first occurrence wins (a set ignores repeated adds).
    std::vector<std::string> distinct;
    for (const auto& s : items)
        if (std::find(distinct.begin(), distinct.end(), s) == distinct.end()) distinct.push_back(s);
    const std::size_t n = distinct.size();
    // Table size: HashMap starts at 16 and doubles once it holds more than 3/4 of its buckets;
    // new HashSet<>(c) sizes it up front to max(n / .75 + 1, 16), rounded up to a power of two.
    std::size_t capacity = 16;
    if (from_collection) {
        const std::size_t wanted = std::max<std::size_t>(static_cast<std::size_t>(static_cast<float>(n) / .75f) + 1, 16);
        while (capacity < wanted) capacity *= 2;
    } else {
        while (static_cast<double>(n) > static_cast<double>(capacity) * 0.75) capacity *= 2;
    }
    auto bucket = [&](const std::string& s) {
        const auto h = static_cast<std::uint32_t>(string_hash(s));
        return (h ^ (h >> 16)) & (capacity - 1);
    };
    // Within a bucket entries keep insertion order (resizing splits buckets preserving it).
    std::stable_sort(distinct.begin(), distinct.end(),
                     [&](const std::string& a, const std::string& b) { return bucket(a) < bucket(b); });
    return distinct;
}

void tree_set::insert(std::size_t value) {
    if (root_ == nil) {
        nodes_.push_back({value});
        root_ = 0;
        values_.push_back(value);
        return;
    }
    int t = root_, parent = nil, cmp = 0;
    do {
        parent = t;
        cmp = cmp_(value, nodes_[t].value);
        if (cmp < 0) t = nodes_[t].left;
        else if (cmp > 0) t = nodes_[t].right;
        else return;  // already present
    } while (t != nil);
    const int e = static_cast<int>(nodes_.size());
    nodes_.push_back({value, nil, nil, parent, true});
    if (cmp < 0) nodes_[parent].left = e;
    else nodes_[parent].right = e;
    values_.push_back(value);
    fix_after_insertion(e);
}

void tree_set::rotate_left(int p) {
    if (p == nil) return;
    const int r = nodes_[p].right;
    nodes_[p].right = nodes_[r].left;
    if (nodes_[r].left != nil) nodes_[nodes_[r].left].parent = p;
    nodes_[r].parent = nodes_[p].parent;
    if (nodes_[p].parent == nil) root_ = r;
    else if (nodes_[nodes_[p].parent].left == p) nodes_[nodes_[p].parent].left = r;
    else nodes_[nodes_[p].parent].right = r;
    nodes_[r].left = p;
    nodes_[p].parent = r;
}

void tree_set::rotate_right(int p) {
    if (p == nil) return;
    const int l = nodes_[p].left;
    nodes_[p].left = nodes_[l].right;
    if (nodes_[l].right != nil) nodes_[nodes_[l].right].parent = p;
    nodes_[l].parent = nodes_[p].parent;
    if (nodes_[p].parent == nil) root_ = l;
    else if (nodes_[nodes_[p].parent].right == p) nodes_[nodes_[p].parent].right = l;
    else nodes_[nodes_[p].parent].left = l;
    nodes_[l].right = p;
    nodes_[p].parent = l;
}

// The red-black rebalancing of java.util.TreeMap (CLR's algorithm); the rotations it picks decide
// which elements a later insert is compared with.
void tree_set::fix_after_insertion(int x) {
    nodes_[x].black = false;
    while (x != nil && x != root_ && !black(nodes_[x].parent)) {
        if (parent_of(x) == left_of(parent_of(parent_of(x)))) {
            const int y = right_of(parent_of(parent_of(x)));
            if (!black(y)) {
                set_black(parent_of(x), true);
                set_black(y, true);
                set_black(parent_of(parent_of(x)), false);
                x = parent_of(parent_of(x));
            } else {
                if (x == right_of(parent_of(x))) {
                    x = parent_of(x);
                    rotate_left(x);
                }
                set_black(parent_of(x), true);
                set_black(parent_of(parent_of(x)), false);
                rotate_right(parent_of(parent_of(x)));
            }
        } else {
            const int y = left_of(parent_of(parent_of(x)));
            if (!black(y)) {
                set_black(parent_of(x), true);
                set_black(y, true);
                set_black(parent_of(parent_of(x)), false);
                x = parent_of(parent_of(x));
            } else {
                if (x == left_of(parent_of(x))) {
                    x = parent_of(x);
                    rotate_right(x);
                }
                set_black(parent_of(x), true);
                set_black(parent_of(parent_of(x)), false);
                rotate_left(parent_of(parent_of(x)));
            }
        }
    }
    nodes_[root_].black = true;
}

std::vector<std::size_t> tree_set::in_order() const {
    std::vector<std::size_t> out;
    std::vector<int> stack;
    int cur = root_;
    while (cur != nil || !stack.empty()) {
        while (cur != nil) {
            stack.push_back(cur);
            cur = nodes_[cur].left;
        }
        cur = stack.back();
        stack.pop_back();
        out.push_back(nodes_[cur].value);
        cur = nodes_[cur].right;
    }
    return out;
}

}  // namespace kstreams::detail::java
