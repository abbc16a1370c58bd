// The hold tracker of recovery by recomputation (lib/runtime/offset_holds.hpp): per partition, the
// earliest offset whose record still belongs to open state, with few entries kept.
#include <doctest/doctest.h>

#include <climits>

#include "lib/runtime/offset_holds.hpp"

using kstreams::detail::held_records;

TEST_CASE("held records: the earliest offset not released by the watermark") {
    held_records h;
    CHECK(h.earliest(-1) == INT64_MAX);
    h.hold(0, 10, 0);  // offset 0 needed until the watermark reaches 10
    h.hold(1, 20, 0);
    h.hold(2, 10, 0);  // covered by offset 0 (released no later): not kept
    h.hold(3, 15, 0);  // covered by offset 1
    CHECK(h.size() == 2);
    CHECK(h.earliest(9) == 0);
    CHECK(h.earliest(10) == 1);  // 0 and 2 released; 3 and 1 still held, 1 first
    CHECK(h.earliest(19) == 1);
    CHECK(h.earliest(20) == INT64_MAX);
    CHECK(h.size() == 0);
}

TEST_CASE("held records: out-of-order releases (late and early records, hopping windows)") {
    held_records h;
    // A record of a later window, then out-of-order ones of earlier and later windows: each
    // offset is held as long as its own windows need it.
    h.hold(10, 50, 0);
    h.hold(11, 30, 0);  // covered by 10
    h.hold(12, 60, 0);
    h.hold(14, 70, 0);  // 13 was late: nothing held for it
    CHECK(h.earliest(49) == 10);
    CHECK(h.earliest(50) == 12);
    // A record falling in many hopping windows is held until the last of them closes.
    h.hold(15, 1000, 0);
    CHECK(h.earliest(60) == 14);
    CHECK(h.earliest(70) == 15);
    CHECK(h.earliest(999) == 15);
    CHECK(h.earliest(1000) == INT64_MAX);
}

TEST_CASE("held records: an earlier offset held longer (a session that grows) covers what follows it") {
    held_records h;
    h.hold(0, 10, 0);
    h.hold(2, 20, 0);
    h.hold(5, 30, 0);
    h.hold(7, 40, 0);
    // The session of offset 1 grows to release at 35: it covers offsets 2 and 5, not 7.
    h.hold(1, 35, 0);
    CHECK(h.size() == 3);
    CHECK(h.earliest(9) == 0);
    CHECK(h.earliest(34) == 1);
    CHECK(h.earliest(35) == 7);
    // Held again no longer than it already is: nothing changes.
    h.hold(7, 39, 0);
    CHECK(h.earliest(39) == 7);
    CHECK(h.earliest(40) == INT64_MAX);
}

TEST_CASE("held records: the stream time noted with the earliest record still held") {
    held_records h;
    CHECK(h.earliest_stream_time() == -1);
    h.hold(0, 10, 5);
    h.hold(1, 20, 8);
    h.hold(2, 15, 9);  // covered by offset 1: not kept
    CHECK(h.earliest_stream_time() == 5);
    CHECK(h.earliest(10) == 1);
    CHECK(h.earliest_stream_time() == 8);  // what a replay from offset 1 starts from
    h.hold(1, 25, 30);                     // held again, longer: the first stream time noted stays
    CHECK(h.earliest_stream_time() == 8);
    CHECK(h.earliest(25) == INT64_MAX);
    CHECK(h.earliest_stream_time() == -1);
}
