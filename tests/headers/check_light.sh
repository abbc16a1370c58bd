#!/usr/bin/env bash
# Public headers stay light: none includes Asio/Boost, RocksDB, librdkafka, range-v3 or fmt, except
# the opt-in coroutine test helper (include/kstreams/test/coroutine_test.hpp) and the opt-in async
# processors header (include/kstreams/async.hpp: an async processor's process() is an Asio awaitable).
# usage: check_light.sh <include dir>
set -euo pipefail
cd "$1"
bad=$(grep -rnE '#include[[:space:]]*[<"](boost/|rocksdb/|librdkafka/|rdkafka|range/|fmt/)' kstreams \
      | grep -v -e '^kstreams/test/coroutine_test.hpp:' -e '^kstreams/async.hpp:' || true)
if [[ -n $bad ]]; then
    echo "heavy includes in public headers:"
    echo "$bad"
    exit 1
fi
echo "public headers include no heavy dependency"
