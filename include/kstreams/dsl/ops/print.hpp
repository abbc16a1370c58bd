// print: writes "[label]: key, value" per record to standard output or a file (Kafka's Printed),
// or "[label]: " and a mapper's result (Printed.withKeyValueMapper).
#pragma once

#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <type_traits>

#include <kstreams/detail/node.hpp>
#include <kstreams/dsl/detail/callable.hpp>
#include <kstreams/error.hpp>
#include <kstreams/record.hpp>

namespace kstreams::dsl_detail {

template <class T>
void print_value(std::ostream& os, const T& v, bool is_null) {
    if (is_null) {
        os << "null";
    } else if constexpr (is_optional_v<T>) {
        if (v) print_value(os, *v, false);
        else os << "null";
    } else if constexpr (requires { os << v; }) {
        os << v;
    } else {
        os << "<" << sizeof(T) << "-byte value>";
    }
}

/// What print() writes after the label by default: "key, value" (Kafka's "%s, %s"), null as null.
struct print_key_and_value {};

template <class K, class V, class Mapper = print_key_and_value>
class print_node final : public kstreams::detail::node {
public:
    print_node(std::string name, std::string file, std::string label, Mapper mapper = {})
        : node(std::move(name)), file_(std::move(file)), label_(std::move(label)), mapper_(std::move(mapper)) {}
    void init(kstreams::detail::task_context& ctx) override {
        node::init(ctx);
        if (!file_.empty()) {
            out_ = std::make_unique<std::ofstream>(file_, std::ios::out | std::ios::trunc);
            if (!*out_) throw streams_error("print " + name() + ": cannot open " + file_);
        }
    }
    void process_erased(const void* p) override {
        const auto& r = *static_cast<const record<K, V>*>(p);
        std::ostream& os = out_ ? *out_ : std::cout;
        os << "[" << label_ << "]: ";
        if constexpr (std::is_same_v<Mapper, print_key_and_value>) {
            print_value(os, r.key, r.key_null);
            os << ", ";
            print_value(os, r.value, r.value_null);
        } else {
            const auto& shown = call_kv(mapper_, r.key, r.value, r.key_null, r.value_null);
            print_value(os, shown, false);
        }
        os << "\n";
        if (out_) out_->flush();
    }
    void close() override {
        if (out_) out_->close();
    }

private:
    std::string file_;
    std::string label_;
    Mapper mapper_;
    std::unique_ptr<std::ofstream> out_;
};

}  // namespace kstreams::dsl_detail
