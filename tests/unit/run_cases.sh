#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Run each case of a unit test binary in its own process and print exactly
# one result line per case on stdout, even if the binary crashes or a
# sanitizer aborts it:
#   PASS <suite>/<case> | FAIL <suite>/<case>: <reason> | SKIP ...
# Exit status: 0 if no case failed, 1 otherwise.
#
# usage: run_cases.sh BINARY SUITE
set -euo pipefail

bin=$1
suite=$2

export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:abort_on_error=1:print_stacktrace=1}
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}

if [ ! -x "$bin" ]; then
	echo "FAIL $suite/build: $bin was not built"
	exit 1
fi
if ! cases=$("$bin" --list) || [ -z "$cases" ]; then
	echo "FAIL $suite/list: $bin --list failed"
	exit 1
fi

failed=0
for t in $cases; do
	set +e
	out=$("$bin" "$t")
	st=$?
	set -e
	line=$(grep -E "^(PASS|FAIL|SKIP) $suite/$t(: |\$)" <<<"$out" |
		tail -n 1 || true)
	if [ "$st" -ne 0 ]; then
		failed=1
		case $line in
		FAIL*)
			echo "$line" ;;
		*)
			why="exited with status $st"
			if [ "$st" -gt 128 ]; then
				why="killed by SIG$(kill -l $((st - 128)) 2>/dev/null || echo $((st - 128)))"
			fi
			echo "FAIL $suite/$t: $why (crash or sanitizer report, see stderr)" ;;
		esac
	elif [ -z "$line" ]; then
		failed=1
		echo "FAIL $suite/$t: printed no result line"
	else
		echo "$line"
		case $line in FAIL*) failed=1 ;; esac
	fi
done
exit "$failed"
