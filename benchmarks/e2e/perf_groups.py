#!/usr/bin/env python3
"""perf_groups.py DATA [RECORDS] [HZ]: where an end-to-end app's CPU went, per record, from a
`perf record -F HZ --call-graph dwarf` of the whole process (benchmarks/e2e/PROFILES.md): the CPU
of its own threads and of librdkafka's, and inclusive groups of frames of its own threads (a sample
counts in a group when any frame of its stack matches). Defaults: 1,000,000 records, 1999 Hz."""
import collections, re, subprocess, sys
data = sys.argv[1]
records = float(sys.argv[2]) if len(sys.argv) > 2 else 1e6
hz = float(sys.argv[3]) if len(sys.argv) > 3 else 1999
out = subprocess.run(["perf", "script", "-i", data, "-F", "comm,tid,ip,sym,dso"], capture_output=True, text=True).stdout
groups = [
 ("produce (rd_kafka_producev)", r"rd_kafka_producev"),
 ("delivery reports (rd_kafka_poll)", r"^rd_kafka_poll "),
 ("take from librdkafka (fill, consume_batch)", r"task_manager::fill|rd_kafka_consume_batch_queue"),
 ("partition queue (take, raw, update_head)", r"partition_group::take|partition_queue::raw|partition_queue::update_head"),
 ("free fetched messages", r"kafka_consumer_port::release|message_ptr|rd_kafka_message_destroy"),
 ("source deserialize", r"::deserialize"),
 ("headers", r"headers_of|decode_headers"),
 ("record cache get", r"record_cache::get"),
 ("record cache put", r"record_cache::put"),
 ("commit: cache flush", r"record_cache::flush|count_task::flush|task::flush"),
 ("commit: producer flush / txn commit", r"rd_kafka_flush|commit_transaction|rd_kafka_commit"),
 ("RocksDB", r"rocksdb::"),
 ("page faults", r"exc_page_fault"),
 ("malloc/free", r"_int_malloc|_int_free"),
 ("process (task / count_task)", r"stream_task::process |count_task::process|pass_on"),
]
comm = collections.Counter(); g = collections.Counter(); total = 0
for block in out.split("\n\n"):
    lines = [l for l in block.split("\n") if l.strip()]
    if not lines: continue
    c = lines[0].strip().rsplit(None, 1)[0]
    c = "librdkafka broker threads" if c.startswith("rdk:broker") else ("librdkafka main thread" if c.startswith("rdk:main") else ("rocksdb" if c.startswith("rocksdb") else "app threads"))
    comm[c] += 1; total += 1
    if c != "app threads": continue
    stack = "\n".join(re.sub(r"^\s*[0-9a-f]+\s+", "", l) for l in lines[1:])
    for name, pat in groups:
        if re.search(pat, stack, re.M): g[name] += 1
us = lambda n: n * 1e6 / hz / records
print(f"total {us(total):.2f} us/rec ({total} samples)")
for c, n in comm.most_common(): print(f"  {c:28} {us(n):.2f}")
print("app threads, inclusive:")
for name, _ in groups:
    if g[name]: print(f"  {name:45} {us(g[name]):.3f}  ({100*g[name]/max(1,comm['app threads']):.0f} %)")
