"""Shared by the device report's parts: the devices and constants, small
readers and formatters, the target verdicts (Summary) and the context
that the report's sections fill in."""
import csv
import os
import sys

RZS, ZRAM = "ramzswap0", "zram0"
DEVS = (RZS, ZRAM)
OPS = ("randwrite", "randread")
# Two jobs at once on two vCPUs: IOPS(2 jobs)/IOPS(1 job) at least this.
SCALE_TARGET = 1.5
FIO_OP_KEY = {"randwrite": "write", "randread": "read"}
TARGET_OVERHEAD = 1.10
MIN_SWAP_COMPR = 1 << 20
MIN_SWAP_PAGES = 1000
PAGE = 4096


def progress(msg):
    print("report: " + msg, file=sys.stderr, flush=True)


def read_kv(path, sep="="):
    """KEY<sep>VALUE lines of @path as a dict ("=" for meta.txt, ":" for
    the driver's `stats` file)."""
    out = {}
    if os.path.exists(path):
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                if sep in line:
                    k, v = line.rstrip("\n").split(sep, 1)
                    out[k] = v
    return out


def read_csv(path):
    if not os.path.exists(path):
        return []
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def num(v, default=None):
    try:
        return float(v)
    except (TypeError, ValueError):
        return default


def ratio(a, b):
    if a is None or b is None or b == 0:
        return None
    return a / b


def fmt(v, nd=2, unit=""):
    if v is None:
        return "n/a"
    if isinstance(v, float) and abs(v) >= 1000 and nd <= 1:
        return "%.0f%s" % (v, unit)
    return ("%." + str(nd) + "f%s") % (v, unit)


def us(ns):
    return None if ns is None else ns / 1000.0


def mib(b):
    return None if b is None else b / 1048576.0


def write_dat(path, lines):
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


def status(value, target, higher_is_better):
    if value is None:
        return "n/a"
    ok = value >= target if higher_is_better else value <= target
    return "met" if ok else "NOT met"


class Summary:
    def __init__(self):
        self.rows = []

    def add(self, metric, alg, rzs, zram, rat, target, higher, unit="", judge=None):
        """judge: the value held against target, when it is not the ratio."""
        st = status(rat if judge is None else judge, target, higher) if target is not None else ""
        self.rows.append({"metric": metric, "alg": alg, "ramzswap": rzs, "zram": zram,
                          "ratio": rat, "target": target, "higher": higher,
                          "status": st, "unit": unit})
        return st

    def write_csv(self, path):
        with open(path, "w", newline="", encoding="utf-8") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(["metric", "alg", "ramzswap", "zram", "ratio", "target", "status"])
            for r in self.rows:
                tgt = ""
                if r["target"] is not None:
                    tgt = (">=" if r["higher"] else "<=") + "%g" % r["target"]
                w.writerow([r["metric"], r["alg"],
                            "" if r["ramzswap"] is None else "%.6g" % r["ramzswap"],
                            "" if r["zram"] is None else "%.6g" % r["zram"],
                            "" if r["ratio"] is None else "%.4f" % r["ratio"],
                            tgt, r["status"]])


class Context:
    """What the report's sections share: the raw directory and its
    metadata, the directory of plotted data, the summary rows, the swap
    runs, and the data each plot needs (filled in by the sections)."""

    def __init__(self, raw, data, meta, host, algs, snaps):
        self.raw, self.data = raw, data
        self.meta, self.host = meta, host
        self.algs = algs
        self.snaps = snaps  # /proc/diskstats snapshots (diskstats.load_diskstats)
        self.summ = Summary()
        self.swap_rows = []   # swap.csv
        self.swap_pairs = {}  # alg: the swap passes valid on both devices
        self.iops_dat, self.cdf_files, self.hist_dat, self.trace_dat, self.mem_dat = [], [], [], [], []
