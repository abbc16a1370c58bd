// The record cache's hash table: finds what was put, forgets what was erased (the backward shift
// keeps every other key reachable, also across the end of the slot array), and keeps nodes where
// they are while it grows.
#include <doctest/doctest.h>

#include <map>
#include <random>
#include <string>
#include <utility>

#include "lib/state/node_hash_table.hpp"

using kstreams::state::node_hash_table;
using node = std::pair<const std::string, int>;

TEST_CASE("node_hash_table: emplace, find and erase agree with a std::map over random operations") {
    node_hash_table<node> table;
    std::map<std::string, node*> expected;
    std::mt19937 rng(7);
    // Few distinct keys and many operations: long probe runs form and are erased from.
    std::uniform_int_distribution<int> key_of(0, 299);
    std::uniform_int_distribution<int> op(0, 2);
    for (int i = 0; i < 20000; ++i) {
        const std::string key = "k" + std::to_string(key_of(rng));
        auto it = expected.find(key);
        node* found = table.find(key);
        REQUIRE(found == (it == expected.end() ? nullptr : it->second));
        if (op(rng) < 2) {
            if (it == expected.end()) {
                node& n = table.emplace(key);
                n.second = i;
                expected.emplace(key, &n);
            }
        } else if (it != expected.end()) {
            table.erase(*it->second);
            expected.erase(it);
        }
        REQUIRE(table.size() == expected.size());
    }
    for (const auto& [key, n] : expected) CHECK(table.find(key) == n);
    std::size_t visited = 0;
    table.for_each([&](const node& n) {
        ++visited;
        CHECK(expected.at(n.first) == &n);
    });
    CHECK(visited == expected.size());
}

TEST_CASE("node_hash_table: nodes keep their address while the table grows; clear empties it") {
    node_hash_table<node> table;
    node& first = table.emplace("first");
    first.second = 42;
    for (int i = 0; i < 1000; ++i) table.emplace("key-" + std::to_string(i));
    CHECK(table.find("first") == &first);
    CHECK(first.second == 42);
    CHECK(table.find("key-999") != nullptr);
    CHECK(table.find("key-1000") == nullptr);
    CHECK(table.size() == 1001);
    table.clear();
    CHECK(table.empty());
    CHECK(table.find("first") == nullptr);
    table.emplace("again");
    CHECK(table.find("again") != nullptr);
}
