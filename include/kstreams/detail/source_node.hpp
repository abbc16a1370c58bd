// The typed source node: raw bytes in, record<K,V> out.
#pragma once

#include <exception>

#include <kstreams/detail/node.hpp>
#include <kstreams/detail/task_context.hpp>
#include <kstreams/record.hpp>

namespace kstreams::detail {

template <class K, class V, class KS, class VS>
class typed_source_node final : public source_node {
public:
    typed_source_node(std::string name, KS ks, VS vs)
        : source_node(std::move(name)), ks_(std::move(ks)), vs_(std::move(vs)) {}

    void process_raw(const raw_record& raw, std::int64_t timestamp) override {
        record<K, V> r;
        r.timestamp = timestamp;
        if (!decode(raw, raw.key, true, ks_, r.key, r.key_null)) return;
        if (!decode(raw, raw.value, false, vs_, r.value, r.value_null)) return;
        if (raw.hdrs) r.headers = *raw.hdrs;
        forward(r);
    }

private:
    template <class S, class T>
    bool decode(const raw_record& raw, const std::optional<std::string_view>& bytes, bool in_key, const S& s,
                T& out, bool& null_flag) {
        if (!bytes) {
            null_flag = true;
            return true;
        }
        try {
            out = s.deserialize(*bytes);
            return true;
        } catch (const std::exception& e) {
            ctx_->deserialization_failed(raw, in_key, e.what(), *this);
            return false;
        }
    }

    KS ks_;
    VS vs_;
};

}  // namespace kstreams::detail
