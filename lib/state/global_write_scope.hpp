// Kafka's global stores are read only outside their update processors: a stream processor that
// writes one fails (Kafka's read-only decorator). The stores cannot tell their callers apart, so
// the runtime marks what the current thread is running: a stream task's processors (writes to a
// global store refused) or the global task's update (allowed, also when the test driver nests it
// in a stream task's send to a global topic). Anything else (a test writing through the test
// driver's store accessor, a restore) is allowed, as in Kafka.
#pragma once

namespace kstreams::state {

/// While alive, the current thread runs a stream task's processors.
class stream_processing_scope {
public:
    stream_processing_scope();
    ~stream_processing_scope();
    stream_processing_scope(const stream_processing_scope&) = delete;
    stream_processing_scope& operator=(const stream_processing_scope&) = delete;

private:
    bool previous_;
};

/// While alive, the current thread applies a global topic's record to the global stores.
class global_update_scope {
public:
    global_update_scope();
    ~global_update_scope();
    global_update_scope(const global_update_scope&) = delete;
    global_update_scope& operator=(const global_update_scope&) = delete;

private:
    bool previous_;
};

/// Whether a write to a global store from this thread, now, comes from a stream processor.
bool global_store_writes_refused();

}  // namespace kstreams::state
