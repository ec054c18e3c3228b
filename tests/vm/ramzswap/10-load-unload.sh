#!/usr/bin/env bash
# Load with defaults: ramzswap0 is set up like the original (25% of RAM,
# lzo), the queue looks like a swap device should, then unload. Then load
# three devices, of which only the first is initialised.
# kit-timeout: 180
set -euo pipefail
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=lib-rzs.sh
. "$(dirname "$0")/lib-rzs.sh"

rzs_load
[ -b /dev/ramzswap0 ] || fail "no /dev/ramzswap0"
[ "$(rzs_attr ramzswap0 initstate)" = 1 ] || fail "ramzswap0 not initialised at load"
ram=$(($(meminfo MemTotal) * 1024))
size=$(rzs_attr ramzswap0 disksize)
info "RAM $ram, disksize $size"
want=$((ram / 4 / 4096 * 4096))
diff=$((size - want))
[ "${diff#-}" -le 4096 ] ||
	fail "default disksize $size is not 25% of RAM ($want)"
[ "$(blockdev --getsize64 /dev/ramzswap0)" = "$size" ] || fail "capacity differs from disksize"
[ "$(rzs_attr ramzswap0 mem_limit)" = 0 ] || fail "mem_limit set without a backing device"
grep -q '\[lzo\]' /sys/block/ramzswap0/comp_algorithm || fail "lzo is not the default algorithm"
[ "$(rzs_attr ramzswap0 backing_dev)" = none ] || fail "backing_dev not none"

q=/sys/block/ramzswap0/queue
[ "$(cat $q/logical_block_size)" = 4096 ] || fail "logical_block_size $(cat $q/logical_block_size)"
[ "$(cat $q/physical_block_size)" = 4096 ] || fail "physical_block_size"
[ "$(cat $q/minimum_io_size)" = 4096 ] || fail "minimum_io_size"
[ "$(cat $q/optimal_io_size)" = 4096 ] || fail "optimal_io_size"
[ "$(cat $q/rotational)" = 0 ] || fail "rotational"
[ "$(cat $q/discard_granularity)" = 4096 ] || fail "discard_granularity"
[ "$(cat $q/discard_max_bytes)" != 0 ] || fail "no discard"
[ "$(cat $q/write_zeroes_max_bytes)" != 0 ] || fail "no write zeroes"
[ "$(cat /sys/block/ramzswap0/ext_range)" = 1 ] || fail "partitions allowed"

for f in disksize mem_limit max_zpage_size backing_dev comp_algorithm initstate mm_stat io_stat bd_stat stats latency_hist; do
	[ -r /sys/block/ramzswap0/$f ] || fail "missing attribute $f"
	cat /sys/block/ramzswap0/$f >/dev/null
done
[ -w /sys/block/ramzswap0/reset ] || fail "missing reset"
for k in NumReads NumWrites FailedReads FailedWrites InvalidIO NotifyFree PagesDiscard \
	ZeroPages GoodCompress% NoCompress% PagesStored PagesUsed OrigDataSize ComprDataSize \
	MemUsedTotal BDevNumReads BDevNumWrites BDevFailedWrites BDevBypassed Compressions SplitPages; do
	[ -n "$(rzs_stat ramzswap0 "$k")" ] || fail "stats lacks $k"
done
[ "$(wc -l </sys/block/ramzswap0/latency_hist)" = 64 ] || fail "latency_hist is not 64 lines"
[ "$(wc -w </sys/block/ramzswap0/mm_stat)" = 9 ] || fail "mm_stat is not 9 columns"
[ "$(wc -w </sys/block/ramzswap0/io_stat)" = 4 ] || fail "io_stat is not 4 columns"
[ "$(wc -w </sys/block/ramzswap0/bd_stat)" = 3 ] || fail "bd_stat is not 3 columns"
show_stats ramzswap0

rmmod ramzswap
[ ! -e /dev/ramzswap0 ] || fail "/dev/ramzswap0 survived rmmod"

rzs_load num_devices=3
for i in 0 1 2; do [ -b /dev/ramzswap$i ] || fail "no /dev/ramzswap$i"; done
[ "$(rzs_attr ramzswap1 initstate)" = 0 ] || fail "ramzswap1 initialised"
[ "$(rzs_attr ramzswap2 disksize)" = 0 ] || fail "ramzswap2 has a size"
[ "$(blockdev --getsize64 /dev/ramzswap1)" = 0 ] || fail "ramzswap1 has capacity"
rmmod ramzswap

expect_fail insmod "$RZS_KO" num_devices=0
expect_fail insmod "$RZS_KO" num_devices=1000
[ ! -d /sys/module/ramzswap ] || fail "module loaded with a bad num_devices"
info "ok"
