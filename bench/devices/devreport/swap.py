"""Section 2 of the device report: the swap-heavy run on each device (wall
time, block-layer time per swap I/O), both drivers' rw_page latency from
the in-kernel hist trigger, and ramzswap's own latency_hist."""
import glob
import os
import re

from .common import (DEVS, MIN_SWAP_PAGES, RZS, ZRAM, fmt, num, progress, ratio, read_csv,
                     status, us, write_dat)
from .diskstats import disk_delta, hist_phase_ios, ms_per_io, sum_deltas
from .hist import cdf_lines, hist_percentile, read_hist


def swap_valid(row):
    """A swap run counts only if it actually swapped (1000+ pages out)."""
    return num(row.get("pswpout"), 0) >= MIN_SWAP_PAGES


def swap_load_text(meta):
    """How the swap run loaded memory (runs before swap_load was recorded used stress-ng)."""
    if meta.get("swap_load") == "memscan":
        content = meta.get("scan_type", "mixed")
        if content == "same":
            content = "same-filled"
        pages = ", transparent huge pages asked for (MADV_HUGEPAGE)" if meta.get("scan_thp") == "1" else ""
        return ("memscan (cyclic scan of anonymous memory, %s content%s, every page verified)"
                % (content, pages))
    return "stress-ng --vm --verify"

def swap_section(ctx):
    """Markdown lines of the swap run's tables; fills ctx.summ, and
    ctx.swap_rows and ctx.swap_pairs for the sections after it."""
    progress("swap run results")
    summ, snaps, meta = ctx.summ, ctx.snaps, ctx.meta
    swap_rows = ctx.swap_rows = read_csv(os.path.join(ctx.raw, "swap.csv"))
    md = ["## 2. Swap-heavy stress run\n"]
    swap_notes = []
    if not swap_rows:
        md.append("No swap run results (swap.csv missing or empty).\n")
        return md
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
        ctx.swap_pairs[alg] = both
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
              "(both drivers' swap paths go through `.rw_page`: zram's accounted with "
              "bdev_start_io_acct, ramzswap's wraps the page in a bio accounted with "
              "bio_start_io_acct; in runs of 031290b ramzswap's went through `submit_bio`).\n")
    return md


def rwpage_section(ctx):
    """Both drivers' rw_page latency, from the in-kernel hist trigger
    (trace-swap-*.txt); fills ctx.summ and ctx.trace_dat."""
    trace_files = sorted(glob.glob(os.path.join(ctx.raw, "trace-swap-*.txt")))
    if not trace_files:
        return []
    tr, excluded = {}, {}
    pat = re.compile(r"^trace-swap-(.+)-(%s|%s)-(\d+)\.txt$" % (RZS, ZRAM))
    for path in trace_files:
        m = pat.match(os.path.basename(path))
        if m and ctx.swap_pairs.get(m.group(1)) and m.group(3) not in ctx.swap_pairs[m.group(1)]:
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
    md = ["### Swap-path latency of both drivers (`.rw_page`, same in-kernel histogram)\n",
          "| alg | op | ramzswap ops | zram ops | ramzswap p50 | zram p50 | p50 ratio (<= 1.0) | "
          "ramzswap p99 | zram p99 | p99 ratio (<= 1.0) |",
          "|---|---|---|---|---|---|---|---|---|---|"]
    for alg in sorted({k[0] for k in tr}):
        for op in ("write", "read"):
            c = {d: (tr.get((alg, d)) or {}).get(op) for d in DEVS}
            pv = {}
            for d in DEVS:
                for p in (50, 99):
                    pv[d, p] = hist_percentile(c[d], p) if c[d] else None
            r50 = ratio(pv[RZS, 50], pv[ZRAM, 50])
            r99 = ratio(pv[RZS, 99], pv[ZRAM, 99])
            ctx.summ.add("swap_rwpage_%s_p50_us" % op, alg, us(pv[RZS, 50]), us(pv[ZRAM, 50]), r50, 1.0, False)
            ctx.summ.add("swap_rwpage_%s_p99_us" % op, alg, us(pv[RZS, 99]), us(pv[ZRAM, 99]), r99, 1.0, False)
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
                write_dat(os.path.join(ctx.data, fname), lines)
                ctx.trace_dat.append((fname, "%s %s %s" % (d, alg, op)))
    md.append("\nA kprobe and a kretprobe on each driver's rw_page function feed a log2 hist "
              "trigger in the kernel (both devices instrumented the same way, during the whole "
              "swap run above; ramzswap had no rw_page in runs of 031290b, so those "
              "have zram's side only); percentiles interpolated inside the bucket. Left out as "
              "impossible (< 2 ns, i.e. negative deltas between vCPU clocks): %d reads, %d writes "
              "over both devices.\n" % (excluded.get("read", 0), excluded.get("write", 0)))
    return md


def latency_hist_section(ctx):
    """ramzswap's own latency_hist files (hist-*.txt) against the block
    layer's time per I/O of both devices; fills ctx.summ and ctx.hist_dat."""
    hist_files = sorted(glob.glob(os.path.join(ctx.raw, "hist-*.txt")))
    if not hist_files:
        return []
    md = ["### ramzswap latency_hist (driver time: same-page check, (de)compression, allocator)\n",
          "| phase | op | count | block-layer I/Os, ramzswap | p50 | p99 | block-layer ms/IO, ramzswap | block-layer ms/IO, zram |",
          "|---|---|---|---|---|---|---|---|"]
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
                    blk[d] = ms_per_io(disk_delta(ctx.snaps, "swap-%s-%s-%s" % (m.group(1), d, m.group(2)), d),
                                       "wr" if op == "write" else "rd")
                ctx.summ.add("swap_hist_%s_p50_us_pass%s" % (op, m.group(2)), m.group(1),
                             us(p50), None, None, None, False)
                ctx.summ.add("swap_hist_%s_p99_us_pass%s" % (op, m.group(2)), m.group(1),
                             us(p99), None, None, None, False)
            md.append("| %s | %s | %d | %s | %s µs | %s µs | %s | %s |" % (
                name, op, sum(c), hist_phase_ios(ctx.snaps, name, op), fmt(us(p50), 2), fmt(us(p99), 2),
                fmt(blk.get(RZS), 4), fmt(blk.get(ZRAM), 4)))
            lines = cdf_lines(c)
            fname = "cdf-hist-%s-%s.dat" % (name, op)
            write_dat(os.path.join(ctx.data, fname), lines)
            ctx.hist_dat.append((fname, "%s %s" % (name, op)))
    md.append("\nThe count is pages through the driver; the block-layer I/Os are ramzswap0's "
              "/proc/diskstats completions over the same runs (one per page for 4 KiB I/O and "
              "swap), a cross-check of the histogram.")
    md.append("\nPercentiles are interpolated linearly inside the power-of-two bucket. zram has no "
              "such histogram; compare ramzswap's driver time with the block-layer average "
              "per I/O of both devices beside it, and with the fio clat ratios above.\n")
    return md
