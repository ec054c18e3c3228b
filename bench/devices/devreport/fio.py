"""Section 1 of the device report: fio on the raw devices (IOPS, completion
latency, block-layer time per I/O) and 1b, two jobs at once."""
import glob
import json
import os
import re

from .common import (DEVS, FIO_OP_KEY, OPS, RZS, SCALE_TARGET, ZRAM, fmt, progress, ratio,
                     read_kv, status, us, write_dat)
from .diskstats import disk_delta, ms_per_io, sum_deltas
from .hist import bins_cdf_lines, percentile_from_bins


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


def fio_split_pages(raw, alg):
    """PagesStored and SplitPages of ramzswap0 after the fio runs (its
    `stats` file, "Name: value" lines), or None when missing."""
    stats = read_kv(os.path.join(raw, "stats-fio-%s-ramzswap0.txt" % alg), ":")
    got = [stats.get(k, "").strip() for k in ("PagesStored", "SplitPages")]
    if not all(v.isdigit() for v in got):
        return None
    return int(got[0]), int(got[1])


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

def fio_section(ctx):
    """Markdown lines of sections 1 and 1b; fills ctx.summ, ctx.iops_dat
    and ctx.cdf_files."""
    progress("reading fio results")
    fio, nfiles = load_fio(ctx.raw)
    progress("%d fio files, %d device/op/alg series" % (nfiles, len(fio)))
    if not fio:
        return ["## 1. fio on the raw devices\n",
                "No fio results (phase fio not run, or its files missing or unreadable).\n"]
    summ, snaps = ctx.summ, ctx.snaps
    fio_md = ["## 1. fio on the raw devices\n",
              "| alg | test | device | IOPS (pass 1, pass 2) | IOPS | p50 clat | p99 clat | mean clat | block layer ms/IO |",
              "|---|---|---|---|---|---|---|---|---|"]
    ratio_md = ["", "| alg | test | IOPS ratio (>= 1.0) | IOPS ratio per ABBA pair | p50 ratio (<= 1.0) | "
                "p99 ratio (<= 1.0) | block-layer ms/IO ratio |",
                "|---|---|---|---|---|---|---|"]
    for alg in ctx.algs:
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
            ctx.iops_dat.append('"%s %s" %s %s' % (alg, op.replace("rand", ""),
                                                   fmt(g("iops", RZS), 1), fmt(g("iops", ZRAM), 1)))
            for d in DEVS:
                bins = (fio.get((alg, op, d)) or {}).get("bins")
                if not bins:
                    continue
                name = "cdf-fio-%s-%s-%s.dat" % (alg, op, d)
                write_dat(os.path.join(ctx.data, name), bins_cdf_lines(bins))
                ctx.cdf_files.append((name, "%s %s %s" % (d, alg, op)))
    md = fio_md + ratio_md
    for alg in ctx.algs:
        sp = fio_split_pages(ctx.raw, alg)
        if sp and sp[0]:
            md.append("\nramzswap0 (%s) after the fio runs: %d pages stored, %d of them split in two "
                      "parts (%.1f%%): the share of stores that took the split path."
                      % (alg, sp[0], sp[1], 100.0 * sp[1] / sp[0]))
    md.append("\nclat percentiles come from fio's merged json+ latency bins of both passes; "
              "block layer ms/IO is the /proc/diskstats time per completed I/O over the same "
              "runs (jiffy-granular accounting, so only its average is meaningful).\n")
    return md + scaling_section(load_fio_scale(ctx.raw), ctx.algs, summ)
