// How ktable::suppress holds back updates (Kafka's Suppressed and Suppressed.BufferConfig):
// until a window closes (windowed tables only, a strict buffer: it never emits early), or for a
// time limit after a key's first buffered update; the buffer bounded in records and/or bytes,
// shutting the application down or emitting its oldest records early when full. Include
// <kstreams/dsl.hpp>.
#pragma once

#include <chrono>
#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <type_traits>
#include <utility>

namespace kstreams {

class strict_buffer_config;
class eager_buffer_config;

namespace dsl_detail {

/// What every buffer config holds (Kafka's BufferConfigInternal).
struct buffer_limits {
    std::int64_t max_records = std::numeric_limits<std::int64_t>::max();
    std::int64_t max_bytes = std::numeric_limits<std::int64_t>::max();
    bool shut_down_when_full = true;  ///< false: emit the oldest records early
    bool logging = true;
    std::map<std::string, std::string> log_config;
};

/// The setters both kinds share; each keeps its own kind (Kafka's BufferConfig<BC>).
template <class Self>
class buffer_config_base {
public:
    /// At most `n` keys in the buffer.
    Self with_max_records(std::int64_t n) const { return copy([n](buffer_limits& l) { l.max_records = n; }); }
    /// At most `n` bytes in the buffer (Kafka's estimate: per key 8 + the key's bytes + its
    /// prior, old and new values' bytes + the record's 8 + 8 + 4 bytes of timestamp, offset and
    /// partition, its topic's name and its headers' keys and values).
    Self with_max_bytes(std::int64_t n) const { return copy([n](buffer_limits& l) { l.max_bytes = n; }); }
    /// No bound on records or bytes (strict).
    strict_buffer_config with_no_bound() const;
    /// When full, fail the stream thread with an error ("... buffer exceeded its max capacity").
    strict_buffer_config shut_down_when_full() const;
    /// When full, emit the oldest records early (not strict: a window may be emitted twice).
    eager_buffer_config emit_early_when_full() const;
    /// No changelog: what the buffer holds is lost when the task moves or the app crashes.
    Self with_logging_disabled() const { return copy([](buffer_limits& l) { l.logging = false; }); }
    /// The buffer's changelog with these topic configs (the default: logged, no configs).
    Self with_logging_enabled(std::map<std::string, std::string> config) const {
        return copy([&config](buffer_limits& l) {
            l.logging = true;
            l.log_config = std::move(config);
        });
    }

    const buffer_limits& limits() const { return limits_; }

protected:
    buffer_config_base() = default;
    explicit buffer_config_base(buffer_limits l) : limits_(std::move(l)) {}
    template <class F>
    Self copy(F f) const {
        buffer_limits l = limits_;
        f(l);
        return Self(std::move(l));
    }
    buffer_limits limits_;
};

}  // namespace dsl_detail

/// A buffer that never emits early: unbounded, or bounded and shutting down when full. The only
/// kind suppressed::until_window_closes takes.
class strict_buffer_config : public dsl_detail::buffer_config_base<strict_buffer_config> {
public:
    explicit strict_buffer_config(dsl_detail::buffer_limits l = {}) : buffer_config_base(std::move(l)) {
        limits_.shut_down_when_full = true;
    }
};

/// A bounded buffer that emits its oldest records early when full.
class eager_buffer_config : public dsl_detail::buffer_config_base<eager_buffer_config> {
public:
    explicit eager_buffer_config(dsl_detail::buffer_limits l = {}) : buffer_config_base(std::move(l)) {
        limits_.shut_down_when_full = false;
    }
};

namespace dsl_detail {
template <class Self>
strict_buffer_config buffer_config_base<Self>::with_no_bound() const {
    buffer_limits l = limits_;
    l.max_records = l.max_bytes = std::numeric_limits<std::int64_t>::max();
    return strict_buffer_config(std::move(l));
}
template <class Self>
strict_buffer_config buffer_config_base<Self>::shut_down_when_full() const {
    return strict_buffer_config(limits_);
}
template <class Self>
eager_buffer_config buffer_config_base<Self>::emit_early_when_full() const {
    return eager_buffer_config(limits_);
}
}  // namespace dsl_detail

/// Kafka's Suppressed.BufferConfig factories.
struct buffer_config {
    /// At most `n` keys, emitting early when full (add .shut_down_when_full() for a strict one).
    static eager_buffer_config max_records(std::int64_t n) { return eager_buffer_config().with_max_records(n); }
    /// At most `n` bytes, emitting early when full (add .shut_down_when_full() for a strict one).
    static eager_buffer_config max_bytes(std::int64_t n) { return eager_buffer_config().with_max_bytes(n); }
    /// No bound (strict): as much memory as the time bound needs.
    static strict_buffer_config unbounded() { return strict_buffer_config(); }
};

namespace dsl_detail {
/// What both kinds of suppression hold.
struct suppression {
    std::string name;  ///< the processor's; its store is `<name>-store`
    buffer_limits buffer;
    std::int64_t time_limit_ms = 0;  ///< until_time_limit's wait
};
}  // namespace dsl_detail

/// suppressed::until_window_closes(...): the final result of each window, once, after the window
/// closes (stream time at the suppression >= window end + the grace of the windowed aggregation
/// upstream; sessions: + the inactivity gap too). Tombstones are not emitted.
class window_close_suppressed {
public:
    /// Names the processor (and the buffer's store `<name>-store`, changelog
    /// `<application.id>-<name>-store-changelog`).
    window_close_suppressed with_name(std::string name) const {
        window_close_suppressed s = *this;
        s.s_.name = std::move(name);
        return s;
    }
    const dsl_detail::suppression& spec() const { return s_; }

private:
    friend class suppressed;
    explicit window_close_suppressed(dsl_detail::suppression s) : s_(std::move(s)) {}
    dsl_detail::suppression s_;
};

/// Kafka's Suppressed: until_time_limit holds each key's updates for `limit` of stream time after
/// its first buffered update (later updates replace the value, not the time), then emits the
/// latest one, tombstones included.
class suppressed {
public:
    /// Windowed tables only (ktable<windowed<K>, V>), and only with a strict buffer.
    template <class Config>
    static window_close_suppressed until_window_closes(const Config& buffer) {
        static_assert(std::is_same_v<Config, strict_buffer_config>,
                      "kstreams: suppressed::until_window_closes() takes a strict buffer config (buffer_config::unbounded(), "
                      "or max_records / max_bytes then .shut_down_when_full()): emitting early would break its promise of "
                      "one final result per window");
        return window_close_suppressed(dsl_detail::suppression{{}, buffer.limits(), 0});
    }
    template <class Rep, class Period, class Config>
    static suppressed until_time_limit(std::chrono::duration<Rep, Period> limit, const Config& buffer) {
        static_assert(std::is_same_v<Config, strict_buffer_config> || std::is_same_v<Config, eager_buffer_config>,
                      "kstreams: suppressed::until_time_limit() takes a buffer config (buffer_config::...)");
        const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(limit).count();
        return suppressed(dsl_detail::suppression{{}, buffer.limits(), static_cast<std::int64_t>(ms)});
    }
    /// Names the processor (and the buffer's store `<name>-store`).
    suppressed with_name(std::string name) const {
        suppressed s = *this;
        s.s_.name = std::move(name);
        return s;
    }
    const dsl_detail::suppression& spec() const { return s_; }

private:
    explicit suppressed(dsl_detail::suppression s) : s_(std::move(s)) {}
    dsl_detail::suppression s_;
};

}  // namespace kstreams
