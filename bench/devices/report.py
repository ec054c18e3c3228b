"""bench/devices/report.py DIR [--no-plots]

Reads DIR/raw/ (bench/devices/in-vm's output) and writes DIR/REPORT.md,
DIR/summary.csv, DIR/data/*.dat and DIR/*.png. Ratios are ramzswap/zram, from
the same VM run. Progress goes to stderr, the summary to stdout.

Raw layout (all optional except meta.txt; missing parts are reported n/a):
  meta.txt, host.txt          key=value lines
  fio/ALG-OP-PASS-DEV.json    fio json+ (OP randwrite or randread)
  fio-scale/ALG-OP-jJOBS-PASS-DEV.json  fio json, JOBS (1 or 2) jobs at once,
                              group_reporting (aggregate IOPS)
  diskstats.csv               tag,dev,rd_ios,...,rd_ms,wr_ios,...,wr_ms,...
                              tags fio-ALG-OP-PASS-DEV-{before,after} and
                              swap-ALG-DEV-PASS-{before,after}
  mm_stat.csv                 phase,alg,dev,orig,compr,used,...
  swap.csv                    alg,dev,pass,elapsed_s,rc,verify_failures,...
  swap/mm-ALG-DEV-PASS.csv    mm_stat samples during the swap run
  hist-NAME.txt               ramzswap latency_hist ("op bucket count")
  trace-swap-ALG-DEV-PASS.txt rw_page latency of either driver, same format
  mm_stat.csv phases: fio (after the fio runs), mixed (after the mixed fill)
"""
import csv
import glob
import json
import os
import re
import shutil
import subprocess
import sys

RZS, ZRAM = "ramzswap0", "zram0"
DEVS = (RZS, ZRAM)
OPS = ("randwrite", "randread")
# Two jobs at once on two vCPUs: IOPS(2 jobs)/IOPS(1 job) at least this.
SCALE_TARGET = 1.5
FIO_OP_KEY = {"randwrite": "write", "randread": "read"}
TARGET_OVERHEAD = 1.10
LABELS = {
    "swap_throughput_time": "swap_throughput (wall s, ratio zram/ramzswap)",
    "swap_verified": "swap run verified every page (1 = yes)",
}
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


def fio_split_pages(raw, alg):
    """PagesStored and SplitPages of ramzswap0 after the fio runs (its
    `stats` file, "Name: value" lines), or None when missing."""
    stats = read_kv(os.path.join(raw, "stats-fio-%s-ramzswap0.txt" % alg), ":")
    got = [stats.get(k, "").strip() for k in ("PagesStored", "SplitPages")]
    if not all(v.isdigit() for v in got):
        return None
    return int(got[0]), int(got[1])


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


# --- percentiles ------------------------------------------------------------

def percentile_from_bins(bins, p):
    """bins: {value_ns: count}; nearest-rank percentile p (0-100)."""
    total = sum(bins.values())
    if total == 0:
        return None
    rank = p / 100.0 * total
    cum = 0
    for v in sorted(bins):
        cum += bins[v]
        if cum >= rank:
            return float(v)
    return float(max(bins))


def hist_percentile(counts, p):
    """counts[b]: ops with latency in [2^b, 2^(b+1)) ns (bucket 0: [0, 2)).
    Linear interpolation inside the bucket that holds the percentile."""
    total = sum(counts)
    if total == 0:
        return None
    rank = p / 100.0 * total
    cum = 0
    for b, c in enumerate(counts):
        if c and cum + c >= rank:
            lo = 0.0 if b == 0 else float(2 ** b)
            hi = float(2 ** (b + 1))
            return lo + (rank - cum) / c * (hi - lo)
        cum += c
    return float(2 ** len(counts))


def read_hist(path):
    h = {"read": [0] * 32, "write": [0] * 32}
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as f:
        for line in f:
            parts = line.split()
            if len(parts) != 3 or parts[0] not in h:
                continue
            b = int(parts[1])
            if 0 <= b < 32:
                h[parts[0]][b] += int(parts[2])
    return h


# --- fio --------------------------------------------------------------------

def read_fio_job(path):
    """The first (or group-reported) job of a fio JSON output file; fio may
    print notes before the JSON object. Raises ValueError, KeyError or
    IndexError on a file that is not fio JSON."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    return json.loads(text[text.index("{"):])["jobs"][0]


def load_fio(raw):
    """{(alg, op, dev): {'passes': [iops...], 'ios', 'runtime_ms', 'bins',
    'pcts': [{p: ns}], 'mean_ns': [..]}}"""
    res = {}
    pat = re.compile(r"^(.+)-(randwrite|randread)-(\d+)-(%s|%s)\.json$" % (RZS, ZRAM))
    files = sorted(glob.glob(os.path.join(raw, "fio", "*.json")))
    for path in files:
        m = pat.match(os.path.basename(path))
        if not m:
            continue
        alg, op, _pass, dev = m.groups()
        try:
            job = read_fio_job(path)
            side = job[FIO_OP_KEY[op]]
        except (ValueError, KeyError, IndexError) as e:
            progress("warning: cannot parse %s: %s" % (path, e))
            continue
        r = res.setdefault((alg, op, dev), {"passes": [], "ios": 0, "runtime_ms": 0,
                                             "bins": {}, "pcts": [], "mean_ns": [],
                                             "errors": 0})
        r["passes"].append(float(side.get("iops", 0.0)))
        r["ios"] += int(side.get("total_ios", 0))
        r["runtime_ms"] += int(side.get("runtime", 0))
        r["errors"] += int(job.get("error", 0))
        clat = side.get("clat_ns", {})
        for k, c in clat.get("bins", {}).items():
            v = int(k)
            r["bins"][v] = r["bins"].get(v, 0) + int(c)
        r["pcts"].append({float(k): float(v) for k, v in clat.get("percentile", {}).items()})
        r["mean_ns"].append(float(clat.get("mean", 0.0)))
    return res, len(files)


def load_fio_scale(raw):
    """{(alg, op, jobs, dev): [aggregate iops per pass]} from fio-scale/."""
    res = {}
    pat = re.compile(r"^(.+)-(randwrite|randread)-j(\d+)-(\d+)-(%s|%s)\.json$" % (RZS, ZRAM))
    for path in sorted(glob.glob(os.path.join(raw, "fio-scale", "*.json"))):
        m = pat.match(os.path.basename(path))
        if not m:
            continue
        alg, op, jobs, _pass, dev = m.groups()
        try:
            job = read_fio_job(path)
            iops = float(job[FIO_OP_KEY[op]]["iops"])
            if int(job.get("error", 0)):
                raise ValueError("fio reported error %s" % job.get("error"))
        except (ValueError, KeyError, IndexError) as e:
            progress("warning: cannot use %s: %s" % (path, e))
            continue
        res.setdefault((alg, op, int(jobs), dev), []).append(iops)
    return res


def scaling_section(scale, algs, summ):
    """Markdown lines: IOPS with one and two jobs at once, per device."""
    if not scale:
        return []
    md = ["## 1b. Two CPUs at once\n",
          "The same 4 KiB random I/O with one fio job and with two jobs at once (each on its "
          "own half of the region, aggregate IOPS), two passes each in the order "
          "ramzswap 1, 2 / zram 2, 1 / zram 1, 2 / ramzswap 2, 1. Scaling = IOPS with two "
          "jobs / IOPS with one (2.0 is linear on two vCPUs). The driver has no device-wide "
          "lock on the I/O path; the target is a scaling of at least %.1f (the second CPU adds "
          "at least half) and, with two jobs, IOPS no worse than zram's. Passes of one "
          "configuration differ by up to about 15%% under TCG, so a scaling ratio to zram's "
          "within that is a tie.\n" % SCALE_TARGET,
          "| alg | test | device | IOPS 1 job (passes) | IOPS 2 jobs (passes) | scaling |",
          "|---|---|---|---|---|---|"]
    rat_md = ["", "| alg | test | ramzswap scaling (>= %.1f) | zram scaling | ramzswap/zram scaling | "
              "IOPS with 2 jobs, ramzswap/zram (>= 1.0) |" % SCALE_TARGET,
              "|---|---|---|---|---|---|"]
    mean = lambda v: sum(v) / len(v) if v else None  # noqa: E731
    for alg in algs:
        for op in OPS:
            sc, two_iops = {}, {}
            for d in DEVS:
                one, two = scale.get((alg, op, 1, d), []), scale.get((alg, op, 2, d), [])
                sc[d] = ratio(mean(two), mean(one))
                two_iops[d] = mean(two)
                if not one and not two:
                    continue
                md.append("| %s | %s | %s | %s (%s) | %s (%s) | %s |" % (
                    alg, op, d, fmt(mean(one), 0), ", ".join("%.0f" % v for v in one),
                    fmt(mean(two), 0), ", ".join("%.0f" % v for v in two), fmt(sc[d], 3)))
            if sc[RZS] is None and sc[ZRAM] is None:
                continue
            r = ratio(sc[RZS], sc[ZRAM])
            r2 = ratio(two_iops[RZS], two_iops[ZRAM])
            # Judged on ramzswap's own scaling; its ratio to zram's is in the table.
            summ.add("scale_%s_2jobs_over_1" % op, alg, sc[RZS], sc[ZRAM], None, SCALE_TARGET, True,
                     judge=sc[RZS])
            summ.add("scale_%s_2jobs_iops" % op, alg, two_iops[RZS], two_iops[ZRAM], r2, 1.0, True)
            rat_md.append("| %s | %s | %s (%s) | %s | %s | %s (%s) |" % (
                alg, op, fmt(sc[RZS], 3), status(sc[RZS], SCALE_TARGET, True), fmt(sc[ZRAM], 3),
                fmt(r, 3), fmt(r2, 3), status(r2, 1.0, True)))
    return md + rat_md + [""]


def fio_summary(r):
    if not r:
        return None
    iops = r["ios"] / (r["runtime_ms"] / 1000.0) if r["runtime_ms"] else None
    out = {"iops": iops, "passes": r["passes"], "errors": r["errors"]}
    for p in (50.0, 99.0):
        if r["bins"]:
            out["p%d" % p] = percentile_from_bins(r["bins"], p)
        else:
            vals = [d[p] for d in r["pcts"] if p in d]
            out["p%d" % p] = sum(vals) / len(vals) if vals else None
    out["mean"] = sum(r["mean_ns"]) / len(r["mean_ns"]) if r["mean_ns"] else None
    return out


# --- diskstats --------------------------------------------------------------

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


# --- memory -----------------------------------------------------------------

def overhead(row):
    c, u = num(row.get("compr_data_size")), num(row.get("mem_used_total"))
    return ratio(u, c)


def alloc_overhead(row):
    """Overhead of the allocator alone: raw (huge) pages taken out of both
    mem_used_total and compr_data_size."""
    h = num(row.get("huge_pages"), 0) * PAGE
    return ratio(num(row.get("mem_used_total"), 0) - h, num(row.get("compr_data_size"), 0) - h)


def swap_valid(row):
    """A swap run counts only if it actually swapped (1000+ pages out)."""
    return num(row.get("pswpout"), 0) >= MIN_SWAP_PAGES


def mean_object(row):
    """Mean compressed object size in bytes: compr_data_size over the pages
    stored compressed (not same-filled, not huge)."""
    pages = num(row.get("orig_data_size"), 0) / PAGE - num(row.get("same_pages"), 0) \
        - num(row.get("huge_pages"), 0)
    if pages <= 0:
        return None
    return (num(row.get("compr_data_size"), 0) - num(row.get("huge_pages"), 0) * PAGE) / pages


def swap_mem(raw, alg, dev):
    """mm_stat of the swap run(s): the sample at peak compr_data_size, and the
    median overhead over samples with at least half the peak."""
    peak, overheads = None, []
    for path in sorted(glob.glob(os.path.join(raw, "swap", "mm-%s-%s-*.csv" % (alg, dev)))):
        # Below 1 MiB the device holds little more than the swap header.
        rows = [r for r in read_csv(path) if num(r.get("compr_data_size"), 0) >= MIN_SWAP_COMPR]
        if not rows:
            continue
        top = max(rows, key=lambda r: num(r["compr_data_size"], 0))
        if peak is None or num(top["compr_data_size"]) > num(peak["compr_data_size"]):
            peak = top
        half = num(top["compr_data_size"]) / 2
        overheads += [overhead(r) for r in rows if num(r["compr_data_size"]) >= half]
    overheads = sorted(o for o in overheads if o is not None)
    med = overheads[len(overheads) // 2] if overheads else None
    return peak, med, len(overheads)


# --- verdicts ---------------------------------------------------------------

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


def us(ns):
    return None if ns is None else ns / 1000.0


def mib(b):
    return None if b is None else b / 1048576.0


# --- plots ------------------------------------------------------------------

def gnuplot(script, cwd):
    try:
        p = subprocess.run(["gnuplot"], input=script, text=True, cwd=cwd,
                           capture_output=True, timeout=120, check=False)
    except (OSError, subprocess.TimeoutExpired) as e:
        progress("warning: gnuplot failed: %s" % e)
        return False
    if p.returncode != 0:
        progress("warning: gnuplot: %s" % p.stderr.strip()[:300])
        return False
    return True


def cdf_lines(counts):
    """CDF points (upper bound in us, fraction) of a log2 histogram, from the
    bucket before the first non-empty one to the first that reaches 1."""
    total = sum(counts)
    nz = [b for b, c in enumerate(counts) if c]
    if not total:
        return []
    cum, lines = 0, []
    for b in range(max(nz[0] - 1, 0), nz[-1] + 1):
        cum += counts[b]
        lines.append("%.6f %.6f" % (2 ** (b + 1) / 1000.0, cum / total))
    return lines


def write_dat(path, lines):
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


def swap_load_text(meta):
    """How the swap run loaded memory (runs before swap_load was recorded used stress-ng)."""
    if meta.get("swap_load") == "memscan":
        content = meta.get("scan_type", "mixed")
        if content == "same":
            content = "same-filled"
        pages = ", transparent huge pages (2 MiB swap-outs)" if meta.get("scan_thp") == "1" else ""
        return ("memscan (cyclic scan of anonymous memory, %s content%s, every page verified)"
                % (content, pages))
    return "stress-ng --vm --verify"


def main(argv):
    args = [a for a in argv if not a.startswith("--")]
    plots = "--no-plots" not in argv
    if len(args) != 1:
        print("usage: bench/devices/report DIR [--no-plots]   (DIR holds raw/)", file=sys.stderr)
        return 2
    out = os.path.abspath(args[0])
    raw = os.path.join(out, "raw")
    if not os.path.isfile(os.path.join(raw, "meta.txt")):
        print("bench/devices/report: error: %s/meta.txt missing (no benchmark output)" % raw,
              file=sys.stderr)
        return 2
    data = os.path.join(out, "data")
    os.makedirs(data, exist_ok=True)
    meta = read_kv(os.path.join(raw, "meta.txt"))
    host = read_kv(os.path.join(raw, "host.txt"))
    algs = [a for a in meta.get("algs", "lzo").split(",") if a]
    summ = Summary()
    md = []

    progress("reading fio results")
    fio, nfiles = load_fio(raw)
    progress("%d fio files, %d device/op/alg series" % (nfiles, len(fio)))
    snaps = load_diskstats(raw)

    run = os.path.basename(os.path.dirname(out))
    md.append("# Device benchmark: ramzswap vs zram (%s)\n" % run)
    md.append("Run `%s` in one lab VM (%s, %s vCPUs, %s MiB RAM, kernel %s), %s to %s. "
              "Ratios are ramzswap/zram measured side by side in that VM; absolute "
              "numbers are TCG numbers (about 20x slower than native) and only the "
              "ratios are meant to be compared across runs.\n"
              % (run, meta.get("accel", "?"), meta.get("cpus", "?"),
                 int(num(meta.get("mem_total_kb"), 0) // 1024), meta.get("kernel", "?"),
                 meta.get("started", "?"), meta.get("finished", "(unfinished)")))
    md.append("- Lab exit status: %s; kernel problems on the console: %s"
              % (host.get("lab_exit", "?"), host.get("console_problem") or "none"))
    md.append("- Tools: %s, %s; lab arguments: `%s`; tree: %s"
              % (meta.get("fio", "?"), meta.get("stress_ng", "?"),
                 host.get("lab_args", "?"), host.get("git_head", "?")))
    md.append("- ramzswap max_zpage_size: %s" % meta.get("max_zpage", "default (PAGE_SIZE/2)"))
    phases = meta.get("phases", "fio,scale,mixed,swap").split(",")
    fio_text = ("fio region %s, %s s per run, 4 KiB psync direct=1 iodepth 1, "
                "buffer_compress_percentage=%s refill_buffers, two passes per device in ABBA "
                "(writes) and BAAB (reads) order"
                % (meta.get("fio_size", "?"), meta.get("fio_runtime_s", "?"),
                   meta.get("fio_compress_pct", "50"))
                if "fio" in phases else "no fio runs")
    swap_text = ("swap run: %s, %s" % (swap_load_text(meta), meta.get("swap", "?"))
                 if "swap" in phases else "no swap run")
    md.append("- Devices: same algorithm, disksize %s; phases %s; %s; %s.\n"
              % (meta.get("disksize", "?"), ",".join(phases), fio_text, swap_text))

    # 1. fio ------------------------------------------------------------------
    fio_md = ["## 1. fio on the raw devices\n",
              "| alg | test | device | IOPS (pass 1, pass 2) | IOPS | p50 clat | p99 clat | mean clat | block layer ms/IO |",
              "|---|---|---|---|---|---|---|---|---|"]
    ratio_md = ["", "| alg | test | IOPS ratio (>= 1.0) | IOPS ratio per ABBA pair | p50 ratio (<= 1.0) | "
                "p99 ratio (<= 1.0) | block-layer ms/IO ratio |",
                "|---|---|---|---|---|---|---|"]
    iops_dat, cdf_files = [], []
    for alg in algs:
        for op in OPS:
            s = {d: fio_summary(fio.get((alg, op, d))) for d in DEVS}
            kind = "wr" if op == "randwrite" else "rd"
            blk = {}
            for d in DEVS:
                dd = sum_deltas([disk_delta(snaps, "fio-%s-%s-%d-%s" % (alg, op, p, d), d)
                                 for p in (1, 2)])
                blk[d] = ms_per_io(dd, kind)
            if not s[RZS] and not s[ZRAM]:
                continue
            for d in DEVS:
                x = s[d]
                if not x:
                    fio_md.append("| %s | %s | %s | n/a | n/a | n/a | n/a | n/a | n/a |" % (alg, op, d))
                    continue
                fio_md.append("| %s | %s | %s | %s | %s | %s µs | %s µs | %s µs | %s |" % (
                    alg, op, d, ", ".join("%.0f" % v for v in x["passes"]), fmt(x["iops"], 0),
                    fmt(us(x["p50"]), 1), fmt(us(x["p99"]), 1), fmt(us(x["mean"]), 1),
                    fmt(blk[d], 4)))
            g = lambda k, d: s[d][k] if s[d] else None  # noqa: E731
            r_iops = ratio(g("iops", RZS), g("iops", ZRAM))
            # Pass k of one device ran next to pass k of the other (ABBA).
            pairs = [ratio(a, b) for a, b in zip(s[RZS]["passes"] if s[RZS] else [],
                                                 s[ZRAM]["passes"] if s[ZRAM] else [])]
            r50 = ratio(g("p50", RZS), g("p50", ZRAM))
            r99 = ratio(g("p99", RZS), g("p99", ZRAM))
            r_blk = ratio(blk[RZS], blk[ZRAM])
            summ.add("fio_%s_iops" % op, alg, g("iops", RZS), g("iops", ZRAM), r_iops, 1.0, True)
            summ.add("fio_%s_p50_us" % op, alg, us(g("p50", RZS)), us(g("p50", ZRAM)), r50, 1.0, False)
            summ.add("fio_%s_p99_us" % op, alg, us(g("p99", RZS)), us(g("p99", ZRAM)), r99, 1.0, False)
            summ.add("fio_%s_blk_ms_per_io" % op, alg, blk[RZS], blk[ZRAM], r_blk, None, False)
            ratio_md.append("| %s | %s | %s (%s) | %s | %s (%s) | %s (%s) | %s |" % (
                alg, op, fmt(r_iops, 3), status(r_iops, 1.0, True),
                ", ".join(fmt(x, 3) for x in pairs) or "n/a", fmt(r50, 3),
                status(r50, 1.0, False), fmt(r99, 3), status(r99, 1.0, False), fmt(r_blk, 3)))
            iops_dat.append('"%s %s" %s %s' % (alg, op.replace("rand", ""),
                                               fmt(g("iops", RZS), 1), fmt(g("iops", ZRAM), 1)))
            for d in DEVS:
                bins = (fio.get((alg, op, d)) or {}).get("bins")
                if not bins:
                    continue
                total, cum, lines = sum(bins.values()), 0, []
                for v in sorted(bins):
                    cum += bins[v]
                    lines.append("%.3f %.6f" % (v / 1000.0, cum / total))
                name = "cdf-fio-%s-%s-%s.dat" % (alg, op, d)
                write_dat(os.path.join(data, name), lines)
                cdf_files.append((name, "%s %s %s" % (d, alg, op)))
    md += fio_md + ratio_md
    for alg in algs:
        sp = fio_split_pages(raw, alg)
        if sp and sp[0]:
            md.append("\nramzswap0 (%s) after the fio runs: %d pages stored, %d of them split in two "
                      "parts (%.1f%%): the share of stores that took the split path."
                      % (alg, sp[0], sp[1], 100.0 * sp[1] / sp[0]))
    md.append("\nclat percentiles come from fio's merged json+ latency bins of both passes; "
              "block layer ms/IO is the /proc/diskstats time per completed I/O over the same "
              "runs (jiffy-granular accounting, so only its average is meaningful).\n")
    md += scaling_section(load_fio_scale(raw), algs, summ)

    # 2. swap run -------------------------------------------------------------
    progress("swap run results")
    swap_rows = read_csv(os.path.join(raw, "swap.csv"))
    md.append("## 2. Swap-heavy stress run\n")
    swap_notes = []
    swap_pairs = {}
    hist_dat = []
    if not swap_rows:
        md.append("No swap run results (swap.csv missing or empty).\n")
    else:
        md.append("| alg | device | pass | elapsed s | load rc | verify failures | pswpout | pswpin | "
                  "writes | ms/write | reads | ms/read |")
        md.append("|---|---|---|---|---|---|---|---|---|---|---|---|")
        swap_algs = []
        for row in swap_rows:
            if row["alg"] not in swap_algs:
                swap_algs.append(row["alg"])
            d = disk_delta(snaps, "swap-%s-%s-%s" % (row["alg"], row["dev"], row["pass"]), row["dev"])
            md.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
                row["alg"], row["dev"], row["pass"], row["elapsed_s"], row["rc"],
                row["verify_failures"], row["pswpout"], row["pswpin"],
                fmt(d and d["wr_ios"], 0), fmt(ms_per_io(d, "wr"), 4),
                fmt(d and d["rd_ios"], 0), fmt(ms_per_io(d, "rd"), 4)))
        md.append("")
        md.append("| alg | swap throughput ratio, zram time / ramzswap time (>= 1.0) | per pass | "
                  "swap I/Os per s ratio | block-layer ms/write ratio (<= 1.0) | ms/read ratio (<= 1.0) | "
                  "both verified |")
        md.append("|---|---|---|---|---|---|---|")
        for alg in swap_algs:
            rows = {d: [r for r in swap_rows if r["alg"] == alg and r["dev"] == d and swap_valid(r)]
                    for d in DEVS}
            # Keep the ABBA balance: only passes valid on both devices, when any.
            both = {r["pass"] for r in rows[RZS]} & {r["pass"] for r in rows[ZRAM]}
            if both:
                rows = {d: [r for r in rows[d] if r["pass"] in both] for d in DEVS}
            by_pass = {d: {r["pass"]: r for r in rows[d]} for d in DEVS}
            swap_pairs[alg] = both
            el = {d: (sum(num(r["elapsed_s"], 0) for r in rows[d]) / len(rows[d])) if rows[d] else None
                  for d in DEVS}
            ok = all(r["rc"] == "0" and r["verify_failures"] in ("0", "")
                     for r in swap_rows if r["alg"] == alg) and all(rows[d] for d in DEVS)
            dd = {d: sum_deltas([disk_delta(snaps, "swap-%s-%s-%s" % (alg, d, r["pass"]), d)
                                 for r in rows[d]]) for d in DEVS}
            msw = {d: ms_per_io(dd[d], "wr") for d in DEVS}
            msr = {d: ms_per_io(dd[d], "rd") for d in DEVS}
            r_tp = ratio(el[ZRAM], el[RZS])
            pairs = [ratio(num(by_pass[ZRAM][k]["elapsed_s"]), num(by_pass[RZS][k]["elapsed_s"]))
                     for k in sorted(both)]
            sio = {d: ratio(sum(num(r["pswpin"], 0) + num(r["pswpout"], 0) for r in rows[d]),
                            sum(num(r["elapsed_s"], 0) for r in rows[d]))
                   for d in DEVS}
            r_sio = ratio(sio[RZS], sio[ZRAM])
            r_w, r_r = ratio(msw[RZS], msw[ZRAM]), ratio(msr[RZS], msr[ZRAM])
            invalid = [r for r in swap_rows if r["alg"] == alg and not swap_valid(r)]
            summ.add("swap_throughput_time", alg, el[RZS], el[ZRAM], r_tp, 1.0, True, "s")
            summ.add("swap_blk_ms_per_write", alg, msw[RZS], msw[ZRAM], r_w, 1.0, False)
            summ.add("swap_blk_ms_per_read", alg, msr[RZS], msr[ZRAM], r_r, 1.0, False)
            summ.add("swap_verified", alg, None, None, 1.0 if ok else 0.0, 1.0, True)
            summ.add("swap_io_per_s", alg, sio[RZS], sio[ZRAM], r_sio, None, True)
            md.append("| %s | %s (%s) | %s | %s | %s (%s) | %s (%s) | %s |" % (
                alg, fmt(r_tp, 3), status(r_tp, 1.0, True), ", ".join(fmt(x, 3) for x in pairs),
                fmt(r_sio, 3), fmt(r_w, 3), status(r_w, 1.0, False),
                fmt(r_r, 3), status(r_r, 1.0, False), "yes" if ok else "NO"))
            for r in invalid:
                swap_notes.append("- %s pass %s on %s swapped only %s pages out (the load finished "
                                  "in %s s): that pass is left out of the ratios for both devices, "
                                  "to keep the comparison paired." % (alg, r["pass"], r["dev"],
                                                                       r["pswpout"], r["elapsed_s"]))
        md += [""] + swap_notes if swap_notes else []
        md.append("\nThe swap throughput ratio compares the mean wall time of the same fixed work "
                  "(pass k of both devices ran back to back, ABBA): %s; swap I/Os (pswpin + "
                  "pswpout) per second are shown beside it; ms/write" % (
                      "memscan's cyclic scan swaps every page on every pass, so the pages swapped "
                      "stay close between runs" if meta.get("swap_load") == "memscan" else
                      "the pages swapped for the same stress-ng bogo ops vary from run to run")
                  + " and ms/read are /proc/diskstats deltas "
                  "(the swap path goes through `.rw_page`, accounted with "
                  "bdev_start_io_acct by both drivers).\n")

    # both drivers' rw_page latency, from the in-kernel hist trigger
    trace_files = sorted(glob.glob(os.path.join(raw, "trace-swap-*.txt")))
    trace_dat = []
    if trace_files:
        tr, excluded = {}, {}
        pat = re.compile(r"^trace-swap-(.+)-(%s|%s)-(\d+)\.txt$" % (RZS, ZRAM))
        for path in trace_files:
            m = pat.match(os.path.basename(path))
            if m and swap_pairs.get(m.group(1)) and m.group(3) not in swap_pairs[m.group(1)]:
                continue  # a pass left out of the swap ratios
            h = read_hist(path) if m else None
            if not h:
                continue
            acc = tr.setdefault((m.group(1), m.group(2)), {"read": [0] * 32, "write": [0] * 32})
            for op in acc:
                # Bucket 0 (< 2 ns) cannot be a real rw_page call: the kernel's
                # log2 key puts there the deltas that came out negative (entry
                # and return timestamped on different vCPUs). Left out, counted.
                excluded[op] = excluded.get(op, 0) + h[op][0]
                h[op][0] = 0
                acc[op] = [a + b for a, b in zip(acc[op], h[op])]
        md.append("### Swap-path latency of both drivers (`.rw_page`, same in-kernel histogram)\n")
        md.append("| alg | op | ramzswap ops | zram ops | ramzswap p50 | zram p50 | p50 ratio (<= 1.0) | "
                  "ramzswap p99 | zram p99 | p99 ratio (<= 1.0) |")
        md.append("|---|---|---|---|---|---|---|---|---|---|")
        for alg in sorted({k[0] for k in tr}):
            for op in ("write", "read"):
                c = {d: (tr.get((alg, d)) or {}).get(op) for d in DEVS}
                pv = {}
                for d in DEVS:
                    for p in (50, 99):
                        pv[d, p] = hist_percentile(c[d], p) if c[d] else None
                r50 = ratio(pv[RZS, 50], pv[ZRAM, 50])
                r99 = ratio(pv[RZS, 99], pv[ZRAM, 99])
                summ.add("swap_rwpage_%s_p50_us" % op, alg, us(pv[RZS, 50]), us(pv[ZRAM, 50]), r50, 1.0, False)
                summ.add("swap_rwpage_%s_p99_us" % op, alg, us(pv[RZS, 99]), us(pv[ZRAM, 99]), r99, 1.0, False)
                md.append("| %s | %s | %s | %s | %s µs | %s µs | %s (%s) | %s µs | %s µs | %s (%s) |" % (
                    alg, op, sum(c[RZS] or []), sum(c[ZRAM] or []), fmt(us(pv[RZS, 50]), 2),
                    fmt(us(pv[ZRAM, 50]), 2), fmt(r50, 3), status(r50, 1.0, False),
                    fmt(us(pv[RZS, 99]), 2), fmt(us(pv[ZRAM, 99]), 2), fmt(r99, 3),
                    status(r99, 1.0, False)))
                for d in DEVS:
                    if not c[d] or not sum(c[d]):
                        continue
                    lines = cdf_lines(c[d])
                    fname = "cdf-rwpage-%s-%s-%s.dat" % (alg, d, op)
                    write_dat(os.path.join(data, fname), lines)
                    trace_dat.append((fname, "%s %s %s" % (d, alg, op)))
        md.append("\nA kprobe and a kretprobe on each driver's rw_page function feed a log2 hist "
                  "trigger in the kernel (both devices instrumented the same way, during the whole "
                  "swap run above); percentiles interpolated inside the bucket. Left out as "
                  "impossible (< 2 ns, i.e. negative deltas between vCPU clocks): %d reads, %d writes "
                  "over both devices.\n" % (excluded.get("read", 0), excluded.get("write", 0)))

    # ramzswap's own histograms
    hist_files = sorted(glob.glob(os.path.join(raw, "hist-*.txt")))
    if hist_files:
        md.append("### ramzswap latency_hist (driver time: same-page check, (de)compression, allocator)\n")
        md.append("| phase | op | count | block-layer I/Os, ramzswap | p50 | p99 | block-layer ms/IO, ramzswap | block-layer ms/IO, zram |")
        md.append("|---|---|---|---|---|---|---|---|")
        for path in hist_files:
            name = os.path.basename(path)[5:-4]
            h = read_hist(path)
            for op in ("read", "write"):
                c = h[op]
                if not sum(c):
                    continue
                p50, p99 = hist_percentile(c, 50), hist_percentile(c, 99)
                blk = {}
                m = re.match(r"^swap-(.+)-%s-(\d+)$" % RZS, name)
                if m:
                    for d in DEVS:
                        blk[d] = ms_per_io(disk_delta(snaps, "swap-%s-%s-%s" % (m.group(1), d, m.group(2)), d),
                                           "wr" if op == "write" else "rd")
                    summ.add("swap_hist_%s_p50_us_pass%s" % (op, m.group(2)), m.group(1),
                             us(p50), None, None, None, False)
                    summ.add("swap_hist_%s_p99_us_pass%s" % (op, m.group(2)), m.group(1),
                             us(p99), None, None, None, False)
                md.append("| %s | %s | %d | %s | %s µs | %s µs | %s | %s |" % (
                    name, op, sum(c), hist_phase_ios(snaps, name, op), fmt(us(p50), 2), fmt(us(p99), 2),
                    fmt(blk.get(RZS), 4), fmt(blk.get(ZRAM), 4)))
                lines = cdf_lines(c)
                fname = "cdf-hist-%s-%s.dat" % (name, op)
                write_dat(os.path.join(data, fname), lines)
                hist_dat.append((fname, "%s %s" % (name, op)))
        md.append("\nThe count is pages through the driver; the block-layer I/Os are ramzswap0's "
                  "/proc/diskstats completions over the same runs (one per page for 4 KiB I/O and "
                  "swap), a cross-check of the histogram.")
        md.append("\nPercentiles are interpolated linearly inside the power-of-two bucket. zram has no "
                  "such histogram; compare ramzswap's driver time with the block-layer average "
                  "per I/O of both devices beside it, and with the fio clat ratios above.\n")

    # 3. memory ---------------------------------------------------------------
    progress("memory overhead")
    md.append("## 3. Memory overhead (mem_used_total / compr_data_size)\n")
    md.append("| data | alg | device | orig MiB | compr MiB | used MiB | overhead | overhead without huge pages | "
              "orig/used | same pages | huge pages | mean object B |")
    md.append("|---|---|---|---|---|---|---|---|---|---|---|---|")
    ratio_rows = []
    mem_dat = []
    notes = []
    mm_rows = read_csv(os.path.join(raw, "mm_stat.csv"))
    sets = []
    for phase, label in (("fio", "fio data"), ("mixed", "mixed fill")):
        for alg in algs:
            rows = {r["dev"]: r for r in mm_rows if r["phase"] == phase and r["alg"] == alg}
            if rows:
                sets.append((label, alg, rows.get(RZS), rows.get(ZRAM), None))
    for alg in sorted({r["alg"] for r in swap_rows}, key=lambda a: (a not in algs, a)):
        peaks = {d: swap_mem(raw, alg, d) for d in DEVS}
        sets.append(("swap run (peak)", alg, peaks[RZS][0], peaks[ZRAM][0],
                     (peaks[RZS][1], peaks[ZRAM][1])))
    for label, alg, rr, zr, med in sets:
        o = {RZS: overhead(rr) if rr else None, ZRAM: overhead(zr) if zr else None}
        for d, r in ((RZS, rr), (ZRAM, zr)):
            if not r:
                md.append("| %s | %s | %s | n/a | n/a | n/a | n/a | n/a | n/a | n/a | n/a | n/a |" % (label, alg, d))
                continue
            md.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
                label, alg, d, fmt(mib(num(r["orig_data_size"])), 1),
                fmt(mib(num(r["compr_data_size"])), 1), fmt(mib(num(r["mem_used_total"])), 1),
                fmt(o[d], 3), fmt(alloc_overhead(r), 3),
                fmt(ratio(num(r["orig_data_size"]), num(r["mem_used_total"])), 2),
                r.get("same_pages", ""), r.get("huge_pages", ""), fmt(mean_object(r), 0)))
            mo = mean_object(r)
            if d == RZS and mo and mo > (PAGE - 4) / 2 and o[d] and o[d] > TARGET_OVERHEAD:
                notes.append("- %s, %s: ramzswap's compressed objects average %.0f bytes, more than "
                             "half a page, so xvmalloc (objects never span pages) fits only one per "
                             "page; that is where its overhead of %.3f comes from (zsmalloc chains "
                             "up to 4 pages per zspage and packs them)." % (label, alg, mo, o[d]))
        if rr and zr and num(rr.get("huge_pages"), 0) > num(zr.get("huge_pages"), 0):
            notes.append("- %s, %s: ramzswap keeps %d pages uncompressed against zram's %d: without a "
                         "backing device it stores raw every page that compresses to more than "
                         "max_zpage_size (%s), where zram's limit is zsmalloc's huge "
                         "class (about 3.2 KB); "
                         "hence orig/used %s against %s." % (
                             label, alg, num(rr["huge_pages"]), num(zr["huge_pages"]),
                             meta.get("max_zpage", "2048 B, half a page: the article's policy"),
                             fmt(ratio(num(rr["orig_data_size"]), num(rr["mem_used_total"])), 2),
                             fmt(ratio(num(zr["orig_data_size"]), num(zr["mem_used_total"])), 2)))
        key = {"fio": "mem_overhead_fio", "mixed": "mem_overhead_mixed"}.get(
            label.split(" ")[0], "mem_overhead_swap_peak")
        summ.add(key, alg, o[RZS], o[ZRAM], ratio(o[RZS], o[ZRAM]), None, False)
        st = summ.add(key + "_ramzswap_vs_target", alg, o[RZS], o[ZRAM], ratio(o[RZS], o[ZRAM]),
                      TARGET_OVERHEAD, False, judge=o[RZS])
        extra = ""
        if med and any(m is not None for m in med):
            extra = "; median over samples >= half peak: ramzswap %s, zram %s" % (fmt(med[0], 3), fmt(med[1], 3))
            summ.add("mem_overhead_swap_median", alg, med[0], med[1], ratio(med[0], med[1]), None, False)
        ratio_rows.append("| %s | %s | %s | %s | %s (%s) | %s%s |" % (
            label, alg, fmt(o[RZS], 3), fmt(o[ZRAM], 3), fmt(o[RZS], 3), st,
            fmt(ratio(o[RZS], o[ZRAM]), 3), extra))
        mem_dat.append('"%s %s" %s %s' % (label.split(" ")[0], alg, fmt(o[RZS], 4), fmt(o[ZRAM], 4)))
    md.append("")
    md.append("| data | alg | ramzswap overhead | zram overhead | ramzswap vs target <= %.2f | ratio ramzswap/zram |" % TARGET_OVERHEAD)
    md.append("|---|---|---|---|---|---|")
    md += ratio_rows
    if notes:
        md.append("")
        md += notes
    md.append("\nzsmalloc's reference on the hog guests is 1.083 (ANCHORS.md). The swap-run figure "
              "is the mm_stat sample (1 s period) with the largest compr_data_size while the "
              "workers held their pages in swap.\n")

    # verdict -----------------------------------------------------------------
    verdict = ["## Targets\n",
               "Ratios are ramzswap/zram (for the swap run's throughput: zram's wall time over "
               "ramzswap's). On this shared 2-core machine under TCG the same ratio moves by about "
               "10% between ABBA pairs and between runs (see the per-pair columns below), so a "
               "ratio within 0.9-1.1 is a tie rather than a win or a loss.\n",
               "| metric | alg | ramzswap | zram | ratio | target | status |",
               "|---|---|---|---|---|---|---|"]
    for r in summ.rows:
        if r["target"] is None:
            continue
        tgt = (">= " if r["higher"] else "<= ") + "%g" % r["target"]
        verdict.append("| %s | %s | %s | %s | %s | %s | %s |" % (
            LABELS.get(r["metric"], r["metric"].replace(
                "_ramzswap_vs_target", " (target on ramzswap's own value)")),
            r["alg"], fmt(r["ramzswap"], 3), fmt(r["zram"], 3),
            fmt(r["ratio"], 3), tgt, r["status"]))
    problem = host.get("console_problem") or ""
    verdict.append("| kernel problems on the console | | | | | none | %s |"
                   % ("NOT met: " + problem if problem else "met"))
    md[5:5] = [""] + verdict + [""]

    # plots -------------------------------------------------------------------
    pngs = []
    if plots and shutil.which("gnuplot"):
        progress("plotting with gnuplot")
        head = "set terminal pngcairo size 900,540 noenhanced\n" if _has_cairo() else \
            "set terminal png size 900,540 noenhanced\n"
        if iops_dat:
            write_dat(os.path.join(data, "iops.dat"), ["# label ramzswap zram"] + iops_dat)
            if gnuplot(head + "set output '../iops.png'\nset title 'fio 4 KiB IOPS (higher is better)'\n"
                       "set style data histograms\nset style histogram clustered gap 1\n"
                       "set style fill solid 0.8 border -1\nset ylabel 'IOPS'\nset yrange [0:*]\nset grid ytics\n"
                       "set xrange [-0.6:%g]\n" % (len(iops_dat) - 0.4) +
                       "plot 'iops.dat' using 2:xtic(1) title 'ramzswap', '' using 3 title 'zram'\n", data):
                pngs.append(("iops.png", "fio IOPS per device"))
        if cdf_files:
            plot = ", ".join("'%s' using 1:2 with steps lw 2 title '%s'" % (f, t) for f, t in cdf_files)
            if gnuplot(head + "set output '../latency-cdf-fio.png'\nset title 'fio completion latency CDF'\n"
                       "set logscale x\nset xlabel 'clat (us)'\nset ylabel 'fraction of I/Os'\n"
                       "set yrange [0:1]\nset grid\nset key right bottom\nplot " + plot + "\n", data):
                pngs.append(("latency-cdf-fio.png", "fio clat CDF, both devices"))
        if hist_dat:
            plot = ", ".join("'%s' using 1:2 with linespoints lw 2 title '%s'" % (f, t) for f, t in hist_dat)
            if gnuplot(head + "set output '../latency-hist-ramzswap.png'\n"
                       "set title 'ramzswap latency_hist CDF (driver time; bucket upper bounds)'\n"
                       "set logscale x\nset xlabel 'latency (us)'\nset ylabel 'fraction of ops'\n"
                       "set yrange [0:1]\nset grid\nset key right bottom\nplot " + plot + "\n", data):
                pngs.append(("latency-hist-ramzswap.png", "ramzswap latency histogram as a CDF"))
        if trace_dat:
            plot = ", ".join("'%s' using 1:2 with linespoints lw 2 title '%s'" % (f, t) for f, t in trace_dat)
            if gnuplot(head + "set output '../latency-cdf-swap.png'\n"
                       "set title 'swap path (.rw_page) latency CDF, both drivers (bucket upper bounds)'\n"
                       "set logscale x\nset xlabel 'latency (us)'\nset ylabel 'fraction of ops'\n"
                       "set yrange [0:1]\nset grid\nset key right bottom\nplot " + plot + "\n", data):
                pngs.append(("latency-cdf-swap.png", "swap-path latency CDF, both drivers"))
        if mem_dat:
            write_dat(os.path.join(data, "mem.dat"), ["# label ramzswap zram"] + mem_dat)
            if gnuplot(head + "set output '../mem-overhead.png'\n"
                       "set title 'memory overhead mem_used_total/compr_data_size (lower is better)'\n"
                       "set style data histograms\nset style histogram clustered gap 1\n"
                       "set style fill solid 0.8 border -1\nset yrange [0:*]\nset grid ytics\n"
                       "set xrange [-0.6:%g]\n" % (len(mem_dat) - 0.4) +
                       "plot 'mem.dat' using 2:xtic(1) title 'ramzswap', '' using 3 title 'zram', "
                       "%g with lines dt 2 lw 2 title 'target %.2f'\n" % (TARGET_OVERHEAD, TARGET_OVERHEAD),
                       data):
                pngs.append(("mem-overhead.png", "memory overhead"))
    if pngs:
        md.append("## Plots\n")
        for f, t in pngs:
            md.append("![%s](%s)\n" % (t, f))
    md.append("## Files\n")
    md.append("- `summary.csv`: every ratio above, one row per metric")
    md.append("- `raw/`: the VM's output (fio json+ in `raw/fio/`, `diskstats.csv`, `mm_stat.csv`, "
              "`swap.csv`, `swap/` (mm_stat samples, load logs (memscan or stress-ng, and stress-ng's YAML), cgroup counters), "
              "`hist-*.txt` (ramzswap latency_hist), `trace-swap-*` (rw_page histograms of both "
              "drivers), `stats-*.txt`, `dmesg.txt`, `console.log`, `meta.txt`, `host.txt`)")
    md.append("- `data/`: the plotted data")

    summ.write_csv(os.path.join(out, "summary.csv"))
    with open(os.path.join(out, "REPORT.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(md) + "\n")
    progress("wrote %s/REPORT.md, summary.csv, %d plots" % (out, len(pngs)))

    # one-screen summary --------------------------------------------------------
    print("ramzswap vs zram device benchmark: %s (%s)" % (run, meta.get("started", "?")))
    print("  VM: %s, %s vCPUs, %s MiB; lab exit %s; console problems: %s" % (
        meta.get("accel", "?"), meta.get("cpus", "?"), int(num(meta.get("mem_total_kb"), 0) // 1024),
        host.get("lab_exit", "?"), problem or "none"))
    print("  %-34s %-5s %10s %10s %7s  %s" % ("metric", "alg", "ramzswap", "zram", "ratio", "target"))
    for r in summ.rows:
        if r["target"] is None and not r["metric"].startswith("mem_overhead_"):
            continue
        if r["metric"].endswith("_vs_target"):
            continue
        tgt = ""
        if r["target"] is not None:
            tgt = "%s%g %s" % (">=" if r["higher"] else "<=", r["target"], r["status"])
        print("  %-34s %-5s %10s %10s %7s  %s" % (r["metric"], r["alg"], fmt(r["ramzswap"], 3),
                                                 fmt(r["zram"], 3), fmt(r["ratio"], 3), tgt))
    for r in summ.rows:
        if r["metric"].endswith("_vs_target"):
            print("  %-34s %-5s %10s %10s %7s  <=%.2f %s" % (
                r["metric"].replace("_ramzswap_vs_target", " (ramzswap)"), r["alg"],
                fmt(r["ramzswap"], 3), "", "", TARGET_OVERHEAD, r["status"]))
    print("  report: %s" % os.path.join(out, "REPORT.md"))
    return 0


def _has_cairo():
    try:
        p = subprocess.run(["gnuplot", "-e", "set terminal"], capture_output=True, text=True,
                           timeout=30, check=False)
        return "pngcairo" in (p.stdout + p.stderr)
    except (OSError, subprocess.TimeoutExpired):
        return False


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
