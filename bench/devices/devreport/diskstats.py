"""/proc/diskstats snapshots (diskstats.csv): deltas over a tagged run and
the block layer's time per I/O."""
import os
import re

from .common import RZS, num, read_csv


def load_diskstats(raw):
    snaps = {}
    for row in read_csv(os.path.join(raw, "diskstats.csv")):
        snaps[(row["tag"], row["dev"])] = row
    return snaps


def disk_delta(snaps, tag, dev):
    a, b = snaps.get((tag + "-before", dev)), snaps.get((tag + "-after", dev))
    if not a or not b:
        return None
    d = {k: num(b[k], 0) - num(a[k], 0) for k in ("rd_ios", "rd_ms", "wr_ios", "wr_ms")}
    return d


def sum_deltas(ds):
    ds = [d for d in ds if d]
    if not ds:
        return None
    return {k: sum(d[k] for d in ds) for k in ds[0]}


def hist_phase_ios(snaps, name, op):
    """ramzswap0's block-layer I/O count (reads or writes) over the runs a
    latency_hist file covers: fio-randwrite-ALG / fio-randread-ALG hold the
    two fio passes, swap-ALG-ramzswap0-N one swap pass."""
    kind = "wr" if op == "write" else "rd"
    m = re.match(r"^fio-(randwrite|randread)-(.+)$", name)
    if m:
        tags = ["fio-%s-%s-%d-%s" % (m.group(2), m.group(1), n, RZS) for n in (1, 2)]
    else:
        m = re.match(r"^swap-(.+)-%s-(\d+)$" % RZS, name)
        if not m:
            return "n/a"
        tags = ["swap-%s-%s-%s" % (m.group(1), RZS, m.group(2))]
    total, seen = 0, False
    for t in tags:
        d = disk_delta(snaps, t, RZS)
        if d:
            total += d[kind + "_ios"]
            seen = True
    return "%d" % total if seen else "n/a"


def ms_per_io(d, kind):
    if not d or not d[kind + "_ios"]:
        return None
    return d[kind + "_ms"] / d[kind + "_ios"]
