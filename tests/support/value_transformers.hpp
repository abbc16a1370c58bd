// Value transformers (ktable::transform_values) shared by the DSL tests and the conformance
// scenario table_transform_values (written as ApiScenarios.java's Counting and Upper).
#pragma once

#include <cctype>
#include <cstdint>
#include <optional>
#include <string>

#include <kstreams/dsl/value_transformer.hpp>
#include <kstreams/state/key_value_store.hpp>

namespace kstreams::test {

/// "<value>#<updates of the key so far>", counted in the store "seen"; a delete becomes "gone#n".
struct counting_transformer final : value_transformer_with_key<std::string, std::string, std::string> {
    key_value_store<std::string, std::int64_t>* seen = nullptr;
    void init(value_transformer_context& ctx) override {
        value_transformer_with_key::init(ctx);
        seen = &ctx.get_state_store<key_value_store<std::string, std::int64_t>>("seen");
    }
    std::optional<std::string> transform(const std::string& key, const std::optional<std::string>& value) override {
        const std::int64_t n = seen->get(key).value_or(0) + 1;
        seen->put(key, n);
        return value.value_or("gone") + "#" + std::to_string(n);
    }
};

/// Upper-cases a value; "drop" and deletes give a delete.
struct upper_transformer final : value_transformer_with_key<std::string, std::string, std::string> {
    std::optional<std::string> transform(const std::string&, const std::optional<std::string>& value) override {
        if (!value || *value == "drop") return std::nullopt;
        std::string v = *value;
        for (auto& c : v) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        return v;
    }
};

}  // namespace kstreams::test
