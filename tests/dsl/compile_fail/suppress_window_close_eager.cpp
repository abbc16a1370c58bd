// Final results with a buffer that emits early when full: one readable static_assert (Kafka's
// untilWindowCloses takes a StrictBufferConfig only).
#include <kstreams/dsl.hpp>

int main() {
    using namespace std::chrono_literals;
    kstreams::streams_builder b;
    b.stream<std::string, std::string>("in")
        .group_by_key()
        .windowed_by(kstreams::time_windows::of_size_with_no_grace(10ms))
        .count()
#ifdef KSTREAMS_COMPILE_FAIL_CONTROL
        .suppress(kstreams::suppressed::until_window_closes(kstreams::buffer_config::max_records(10).shut_down_when_full()));
#else
        .suppress(kstreams::suppressed::until_window_closes(kstreams::buffer_config::max_records(10)));
#endif
}
