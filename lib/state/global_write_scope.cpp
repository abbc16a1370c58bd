#include "lib/state/global_write_scope.hpp"

namespace kstreams::state {

namespace {
// Set and reset around every record: initial-exec spares the __tls_get_addr call a shared
// library's thread_local costs (one byte of the static TLS glibc keeps for libraries).
[[gnu::tls_model("initial-exec")]] thread_local bool in_stream_processing = false;
}  // namespace

stream_processing_scope::stream_processing_scope() : previous_(in_stream_processing) { in_stream_processing = true; }
stream_processing_scope::~stream_processing_scope() { in_stream_processing = previous_; }

global_update_scope::global_update_scope() : previous_(in_stream_processing) { in_stream_processing = false; }
global_update_scope::~global_update_scope() { in_stream_processing = previous_; }

bool global_store_writes_refused() { return in_stream_processing; }

}  // namespace kstreams::state
