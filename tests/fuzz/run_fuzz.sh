#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Run the xvmalloc fuzz target for a bounded time and print one line:
#   PASS fuzz/xvmalloc | FAIL fuzz/xvmalloc: <reason>
# Engines: the gcc build with the standalone random driver, and, when it
# was built, the clang libFuzzer build. Engine output goes to log files in
# the build directory (tail shown on stderr on failure).
#
# usage: run_fuzz.sh BUILD_DIR SECONDS_PER_ENGINE
set -euo pipefail

build=$1
secs=$2

export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:abort_on_error=1:print_stacktrace=1}
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}

gcc_bin=$build/fuzz_xvmalloc_gcc
lf_bin=$build/fuzz_xvmalloc_libfuzzer
seed=${FUZZ_SEED:-$(date +%s)}
mkdir -p "$build/fuzz-artifacts" "$build/fuzz-corpus"

fail() {
	echo "FAIL fuzz/xvmalloc: $*"
	exit 1
}

[ -x "$gcc_bin" ] || fail "$gcc_bin was not built"

echo "# fuzz/xvmalloc: standalone gcc driver, seed $seed, ${secs}s" >&2
set +e
(cd "$build/fuzz-artifacts" &&
	"$gcc_bin" -s "$seed" -n 100000000 -t "$secs") \
	>"$build/fuzz-gcc.log" 2>&1
st=$?
set -e
if [ "$st" -ne 0 ]; then
	tail -n 40 "$build/fuzz-gcc.log" >&2
	fail "standalone driver (seed $seed) exited with status $st; input saved in $build/fuzz-artifacts, log $build/fuzz-gcc.log"
fi
tail -n 1 "$build/fuzz-gcc.log" >&2

if [ -x "$lf_bin" ]; then
	echo "# fuzz/xvmalloc: libFuzzer, ${secs}s" >&2
	set +e
	"$lf_bin" -max_total_time="$secs" -max_len=4096 -timeout=20 \
		-rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$build/fuzz-artifacts/" \
		"$build/fuzz-corpus" >"$build/fuzz-libfuzzer.log" 2>&1
	st=$?
	set -e
	if [ "$st" -ne 0 ]; then
		tail -n 40 "$build/fuzz-libfuzzer.log" >&2
		fail "libFuzzer exited with status $st; artifact in $build/fuzz-artifacts, log $build/fuzz-libfuzzer.log"
	fi
	grep -E '^stat::number_of_executed_units' "$build/fuzz-libfuzzer.log" >&2 || true
else
	echo "# fuzz/xvmalloc: libFuzzer build not available, standalone driver only" >&2
fi

echo "PASS fuzz/xvmalloc"
