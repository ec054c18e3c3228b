#!/usr/bin/env bash
# fio with --verify=crc32c, 4 KiB random writes on the raw device, with zero,
# incompressible and mixed (50% compressible) buffers, several jobs at once
# (per-slot locking and per-CPU streams under concurrency).
# kit-timeout: 600
set -euo pipefail
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=lib-rzs.sh
. "$(dirname "$0")/lib-rzs.sh"

command -v fio >/dev/null || skip "fio not installed"
rzs_load disksize=256M
d=ramzswap0
dev=/dev/$d

run_fio() { # NAME FIO-OPTIONS...
	local name=$1 log
	shift
	log=$(mktemp)
	if ! timeout 400 fio --name="$name" --filename=$dev --ioengine=psync --direct=1 \
		--bs=4k --rw=randwrite --size=48M --numjobs=2 --offset_increment=64M \
		--verify=crc32c --verify_fatal=1 --do_verify=1 --randrepeat=0 \
		--group_reporting "$@" >"$log" 2>&1; then
		cat "$log"
		fail "fio $name failed"
	fi
	grep -E 'IOPS|err=' "$log" | sed 's/^/# /'
	grep -q 'err= 0' "$log" || { cat "$log"; fail "fio $name reported errors"; }
	show_stats $d
}

run_fio zero --zero_buffers
run_fio incompressible --refill_buffers --buffer_compress_percentage=0
[ "$(rzs_mm $d 8)" -gt 1000 ] || fail "incompressible data not stored raw"
run_fio mixed --refill_buffers --buffer_compress_percentage=50 --buffer_compress_chunk=1024
[ "$(rzs_stat $d FailedReads)" = 0 ] || fail "FailedReads"
[ "$(rzs_stat $d FailedWrites)" = 0 ] || fail "FailedWrites"
# Reads and overwrites racing on the same pages.
timeout 300 fio --name=race --filename=$dev --ioengine=psync --direct=1 --bs=4k \
	--rw=randrw --size=4M --numjobs=4 --time_based --runtime=20 --refill_buffers \
	--buffer_compress_percentage=50 >/dev/null 2>&1 || fail "fio race run failed"
[ "$(rzs_stat $d FailedReads)" = 0 ] || fail "FailedReads after the race run"
blkdiscard $dev
[ "$(rzs_mm $d 3)" = 0 ] || fail "memory left after blkdiscard of the whole device: $(rzs_mm $d 3)"
rzs_unload
info "ok"
