#!/usr/bin/env bash
# Public headers stay light: none includes Asio/Boost, RocksDB, librdkafka, range-v3 or fmt, except
# the opt-in coroutine test helper (include/kstreams/test/coroutine_test.hpp).
# usage: check_light.sh <include dir>
set -euo pipefail
cd "$1"
bad=$(grep -rnE '#include[[:space:]]*[<"](boost/|rocksdb/|librdkafka/|rdkafka|range/|fmt/)' kstreams \
      | grep -v '^kstreams/test/coroutine_test.hpp:' || true)
if [[ -n $bad ]]; then
    echo "heavy includes in public headers:"
    echo "$bad"
    exit 1
fi
echo "public headers include no heavy dependency"
