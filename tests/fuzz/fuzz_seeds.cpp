// Writes each fuzz target's seed corpus: a few valid encodings made by the encoders, into
// <dir>/<target>/seed-<n>. scripts/test runs it before the fuzzers.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include <kstreams/dsl/change.hpp>
#include <kstreams/dsl/detail/fk_join_wire.hpp>
#include <kstreams/dsl/ops/stream_join.hpp>
#include <kstreams/dsl/windowed_serdes.hpp>
#include <kstreams/serde.hpp>
#include <kstreams/state/timestamped_key_value_store.hpp>

#include <kstreams/dsl/detail/join_buffer.hpp>

#include "lib/state/suppress_changelog.hpp"
#include "lib/state/versioned_history.hpp"

namespace {

using namespace kstreams;
using seeds = std::map<std::string, std::vector<std::string>>;

template <class S, class T>
std::string enc(const S& s, const T& v) {
    std::string out;
    s.serialize(v, out);
    return out;
}

void builtin(seeds& out) {
    auto& v = out["builtin_serdes"];
    v = {enc(serde<std::string>{}, std::string("word")), enc(serde<std::int16_t>{}, std::int16_t{-2}),
         enc(serde<std::int32_t>{}, 42), enc(serde<std::int64_t>{}, std::int64_t{1} << 40),
         enc(serde<double>{}, 2.5), enc(serde<bool>{}, true), ""};
}

void windowed_keys(seeds& out) {
    auto& v = out["windowed_keys"];
    v.push_back(enc(time_windowed_serde<std::string>{}, windowed<std::string>{"user-1", {60'000, 120'000}}));
    v.push_back(enc(time_windowed_serde<std::int64_t>{}, windowed<std::int64_t>{7, {-5, 0}}));
    v.push_back(enc(session_windowed_serde<std::string>{}, windowed<std::string>{"k", {10, 20}}));
    v.push_back(enc(session_windowed_serde<std::int32_t>{}, windowed<std::int32_t>{3, {0, 0}}));
}

void store_values(seeds& out) {
    auto& v = out["store_values"];
    v.push_back(enc(value_and_timestamp_serde<std::string>{}, value_and_timestamp<std::string>{"v", 1000}));
    const dsl_detail::change_serde<std::string, serde<std::string>> changes;
    v.push_back(enc(changes, change<std::string>{"new", "old"}));
    v.push_back(enc(changes, change<std::string>{"new", std::nullopt}));
    v.push_back(enc(changes, change<std::string>{std::nullopt, "old"}));
    // The outer join store: {key length}{key}{list}.
    using codec_t = dsl_detail::outer_store_codec<std::string, std::string, std::string>;
    const codec_t codec{serde_ref<std::string>(serde<std::string>{}), serde_ref<std::string>(serde<std::string>{}),
                        serde_ref<std::string>(serde<std::string>{})};
    const std::string key = codec.encode_key(5000, true, "k1");
    std::string list;
    codec_t::append(list, true, codec.left, std::string("left"));
    codec_t::append(list, false, codec.right, std::string("right"));
    v.push_back(std::string(1, static_cast<char>(key.size())) + key + list);
}

void suppress_changelog(seeds& out) {
    auto& v = out["suppress_changelog"];
    dsl_detail::suppress_buffer_value b;
    b.context = {100, 7, "input-topic", 1, {}};
    b.new_value = "new";
    v.push_back(dsl_detail::encode_suppress_changelog_value(b, 100));
    b.prior = "old";
    b.old_value = "old";
    b.context.hdrs.add("h", std::string("x")).add("null", std::nullopt);
    v.push_back(dsl_detail::encode_suppress_changelog_value(b, 50));
    b.old_value = "other";
    b.new_value.reset();
    v.push_back(dsl_detail::encode_suppress_changelog_value(b, -1));
}

void fk_join_wire(seeds& out) {
    using namespace dsl_detail;
    auto& v = out["fk_join_wire"];
    const value_hash h = murmur3_hash128("value");
    v.push_back(enc(subscription_wrapper_serde{},
                    subscription_wrapper{h, fk_instruction::propagate_null_if_no_fk_val, "pk", 3, 1}));
    v.push_back(enc(subscription_wrapper_serde{},
                    subscription_wrapper{std::nullopt, fk_instruction::delete_key_no_propagate, "pk", std::nullopt, 0}));
    v.push_back(enc(subscription_response_serde{}, subscription_response{h, "right", std::nullopt, 0}));
    v.push_back(enc(subscription_response_serde{}, subscription_response{std::nullopt, std::nullopt, std::nullopt, 0}));
    std::string combined;
    append_combined_key_prefix("fk", combined);
    v.push_back(combined + "pk");
}

/// Changelog records as fuzz_window_restore reads them: {key length}{key}{value length}{value}.
void window_restore(seeds& out) {
    auto record = [](std::string key, std::optional<std::string> value) {
        std::string r(1, static_cast<char>(key.size()));
        r += key;
        r.push_back(value ? static_cast<char>(value->size()) : '\xff');
        if (value) r += *value;
        return r;
    };
    auto window_key = [](std::string key, std::int64_t start, std::int32_t seq) {
        detail::put_big_endian(start, key);
        detail::put_big_endian(seq, key);
        return key;
    };
    auto session_key = [](std::string key, std::int64_t start, std::int64_t end) {
        detail::put_big_endian(end, key);
        detail::put_big_endian(start, key);
        return key;
    };
    auto& v = out["window_restore"];
    v.push_back(record(window_key("k", 60'000, 0), "v") + record(window_key("k", 120'000, 0), "w") +
                record(window_key("a", 0, 1), std::nullopt));
    v.push_back(record(session_key("s", 10, 20), "v") + record(session_key("s", 5'000'000, 5'000'100), "w") +
                record(session_key("t", 10, 20), std::nullopt));
}

void state_files(seeds& out) {
    out["state_files"] = {"0\n2\ntopic-a 0 10\ntopic-b 3 0\n", "0\n0\n",
                          "{\"processId\":\"6f1c2e4a-8b3d-4e5f-9a0b-1c2d3e4f5a6b\"}"};
}

void join_buffer(seeds& out) {
    headers hdrs;
    hdrs.add("h", std::string("x"));
    hdrs.add("n", std::nullopt);
    const record_metadata md{"orders", 3, 42};
    out["join_buffer"] = {dsl_detail::join_buffer_value("value", 1'000, &md, hdrs),
                          dsl_detail::join_buffer_value("", 0, nullptr, {}),
                          dsl_detail::join_buffer_key(5'000, "key", 1)};
}

void versioned_history(seeds& out) {
    using state::version;
    out["versioned_history"] = {state::encode_history({version{1, "a"}, version{5, std::nullopt}, version{9, "bc"}}),
                                state::encode_history({version{-3, ""}})};
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::cerr << "usage: fuzz_seeds <corpus dir>\n";
        return 2;
    }
    seeds all;
    builtin(all);
    windowed_keys(all);
    store_values(all);
    suppress_changelog(all);
    fk_join_wire(all);
    window_restore(all);
    state_files(all);
    join_buffer(all);
    versioned_history(all);
    for (const auto& [target, inputs] : all) {
        const auto dir = std::filesystem::path(argv[1]) / target;
        std::filesystem::create_directories(dir);
        for (std::size_t i = 0; i < inputs.size(); ++i) {
            std::ofstream f(dir / ("seed-" + std::to_string(i)), std::ios::binary | std::ios::trunc);
            f.write(inputs[i].data(), static_cast<std::streamsize>(inputs[i].size()));
        }
    }
    return 0;
}
