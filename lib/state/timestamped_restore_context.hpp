// Restoring a timestamped store: its changelog holds plain values with the stored timestamp as the
// record timestamp; the store holds `8-byte BE timestamp ‖ value`. This context converts the
// restored records on their way into the store's restore callback.
#pragma once

#include <string>
#include <vector>

#include <kstreams/serde.hpp>

#include "lib/state/forwarding_store_context.hpp"

namespace kstreams::state {

class timestamped_restore_context final : public forwarding_store_context {
public:
    using forwarding_store_context::forwarding_store_context;
    void register_store(state_store& store, restore_callback restore) override {
        inner_->register_store(store, [restore = std::move(restore)](std::span<const restore_record> batch) {
            std::vector<std::string> values;
            values.reserve(batch.size());
            std::vector<restore_record> converted;
            converted.reserve(batch.size());
            for (const auto& r : batch) {
                if (!r.value) {
                    converted.push_back(r);
                    continue;
                }
                std::string& v = values.emplace_back();
                v.reserve(8 + r.value->size());
                detail::put_big_endian(r.timestamp, v);
                v.append(*r.value);
                converted.push_back({r.key, std::string_view(v), r.timestamp});
            }
            restore(converted);
        });
    }
};

}  // namespace kstreams::state
