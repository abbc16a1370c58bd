// When a windowed aggregation passes on its results (Kafka's EmitStrategy, KIP-825): on every
// update of a window (the default), or once per window after it closes (stream time past its end
// plus grace), with its final aggregate. Closed windows are looked for at most once per
// `__emit.interval.ms.kstreams.windowed.aggregation__` of wall-clock time (1 s; 0 in the test
// driver, as Kafka's TopologyTestDriver).
#pragma once

namespace kstreams {

class emit_strategy {
public:
    static emit_strategy on_window_update() { return emit_strategy(false); }
    static emit_strategy on_window_close() { return emit_strategy(true); }
    bool on_close() const { return on_close_; }

private:
    explicit emit_strategy(bool on_close) : on_close_(on_close) {}
    bool on_close_;
};

}  // namespace kstreams
