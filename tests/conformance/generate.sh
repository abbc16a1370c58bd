#!/bin/sh
# Regenerates tests/conformance/expected/ from Java Kafka Streams (needs a JDK 17+ and Maven; CI
# never runs this: the expected files are committed). Usage: generate.sh [scenario...]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$here/expected"
cd "$here/java"
mvn -q -B compile exec:java -Dexec.mainClass=kstreams.conformance.Main -Dexec.args="$here/expected $*"
