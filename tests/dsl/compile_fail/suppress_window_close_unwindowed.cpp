// Final results of a table without windows: one readable static_assert (Kafka's untilWindowCloses
// is a Suppressed<Windowed>).
#include <kstreams/dsl.hpp>

int main() {
    using namespace std::chrono_literals;
    kstreams::streams_builder b;
    auto counts = b.stream<std::string, std::string>("in").group_by_key();
#ifdef KSTREAMS_COMPILE_FAIL_CONTROL
    counts.windowed_by(kstreams::time_windows::of_size_with_no_grace(10ms))
        .count()
        .suppress(kstreams::suppressed::until_window_closes(kstreams::buffer_config::unbounded()));
#else
    counts.count().suppress(kstreams::suppressed::until_window_closes(kstreams::buffer_config::unbounded()));
#endif
}
