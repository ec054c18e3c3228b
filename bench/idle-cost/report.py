"""bench/idle-cost/report.py DIR [--no-plots]

The cost of just having a swap device on, with a workload that never needs
swap. In one lab VM, hog guests that fit in RAM run throughout, while the
host VM switches its swap between configurations in palindromic rounds
(noswap, ramzswap, zram, zram, ramzswap, noswap; R rounds). Each segment
observes the guests' work rate (work_mbps: MB touched per second of pass
time), the host VM's CPU busy share, MemAvailable and swap traffic.

Reads DIR/raw/meta.env and DIR/raw/segments.csv (DIR/raw/host.txt if there)
and writes DIR/REPORT.md, DIR/rounds.csv, DIR/summary.csv, DIR/work-rate.png
and DIR/cpu-busy.png (gnuplot; their data in DIR/data/), and a summary on
stdout. Exit 0 when the report was written, 2 on unusable input.

Figures. Each configuration is compared with noswap of the same round only,
so that drift over the run (other load on the machine) cancels out; a
palindromic round puts both sides at the same mean time.
  ratio(c, r)     = mean work_mbps of c in round r / that of noswap in r;
                    loss % = 100 (1 - ratio)
  cpu_delta(c, r) = mean cpu_busy_pct of c in r - that of noswap (pp)
  mem_delta(c, r) = mean mem_avail_mib of c in r - that of noswap (MiB;
                    negative: the device holds RAM though nothing is stored)
Per configuration, summary.csv gives the median over rounds (and min/max
of the ratio). The noise floor: noswap measured twice in a round, its
later segment's work rate over its earlier one's (noswap_repeat); the
floor is the largest |1 - x| over rounds. A device's median ratio is
"within the noise floor" when |1 - median| <= floor. A segment with
swapin_ps + swapout_ps > 1 or swap_used_mib > 0 was not swap-free: the
report says so first (after failed data verification), and still gives
the figures. A segment without a completed pass (passes 0 or no
work_mbps) has no work rate and is left out of the work-rate means.
"""
import csv
import math
import os
import re
import shutil
import statistics
import subprocess
import sys

PROG = "bench/idle-cost/report"
BASE = "noswap"
COLUMNS = ("seq round config t_start_s window_s guests passes missed work_mbps pass_mbps "
           "pass_secs cpu_busy_pct guests_cpu_pct mem_avail_mib swap_total_mib swap_used_mib "
           "swapin_ps swapout_ps setup_s vmalloc_used_kib").split()
REQUIRED = ("seq round config window_s passes work_mbps cpu_busy_pct mem_avail_mib "
            "swap_used_mib swapin_ps swapout_ps").split()
SWAP_PS_LIMIT = 1.0
PNGS = (("work-rate.png", 3, "work rate", "guest work rate per segment (MB touched per s of pass time)",
         "work rate (MB/s)"),
        ("cpu-busy.png", 4, "CPU busy", "host VM CPU busy per segment", "CPU busy (%)"))


class Unusable(Exception):
    pass


def num(v):
    try:
        x = float(v)
    except (TypeError, ValueError):
        return None
    return x if math.isfinite(x) else None


def mean(xs):
    xs = [x for x in xs if x is not None]
    return sum(xs) / len(xs) if xs else None


def median(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def fmt(v, spec="%.2f", none="n/a"):
    return none if v is None else spec % v


def sgn(v, nd=1, unit=""):
    """Signed, with no "-0": +1.0 pp, -16 MiB."""
    if v is None:
        return "n/a"
    v = 0.0 if round(v, nd) == 0 else v
    return ("%+.*f" % (nd, v)) + unit


def read_kv(path):
    out = {}
    if os.path.isfile(path):
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                if "=" in line:
                    k, v = line.rstrip("\n").split("=", 1)
                    out[k.strip()] = v
    return out


def load(raw):
    """meta, host, segments (dicts of numbers), notes on skipped rows."""
    for name in ("meta.env", "segments.csv"):
        if not os.path.isfile(os.path.join(raw, name)):
            raise Unusable("%s/%s missing (no benchmark output)" % (raw, name))
    meta, host = read_kv(os.path.join(raw, "meta.env")), read_kv(os.path.join(raw, "host.txt"))
    with open(os.path.join(raw, "segments.csv"), newline="", encoding="utf-8") as f:
        rd = csv.DictReader(f)
        missing = [c for c in REQUIRED if c not in (rd.fieldnames or [])]
        if missing:
            raise Unusable("segments.csv lacks column(s) %s" % ", ".join(missing))
        rows = list(rd)
    segs, notes = [], []
    for i, row in enumerate(rows, 2):
        s = {c: num(row.get(c)) for c in COLUMNS}
        s["config"] = (row.get("config") or "").strip()
        if s["seq"] is None or s["round"] is None or not s["config"]:
            notes.append("segments.csv line %d skipped (no seq, round or config)" % i)
            continue
        s["seq"], s["round"] = int(s["seq"]), int(s["round"])
        s["work"] = None if s["passes"] == 0 else s["work_mbps"]
        s["swapped"] = ((s["swapin_ps"] or 0) + (s["swapout_ps"] or 0) > SWAP_PS_LIMIT
                        or (s["swap_used_mib"] or 0) > 0)
        segs.append(s)
    segs.sort(key=lambda s: s["seq"])
    if not any(s["config"] == BASE for s in segs):
        raise Unusable("no %s segments in segments.csv: nothing to compare with" % BASE)
    return meta, host, segs, notes


def compute(segs, configs):
    """Per-round rows, per-config summary, and the noswap repeat ratios."""
    by = {}
    for s in segs:
        by.setdefault((s["round"], s["config"]), []).append(s)
    rows, repeats = [], []
    for r in sorted({s["round"] for s in segs}):
        base = by.get((r, BASE), [])
        bw, bc, bm, bv_ = (mean(s[k] for s in base) for k in ("work", "cpu_busy_pct", "mem_avail_mib",
                                                            "vmalloc_used_kib"))
        bv = [s["work"] for s in base if s["work"] is not None]
        rep = bv[-1] / bv[0] if len(bv) >= 2 and bv[0] > 0 else None
        if rep is not None:
            repeats.append((r, rep))
        for c in configs:
            ss = by.get((r, c))
            if not ss:
                continue
            w, cpu, mem, vm = (mean(s[k] for s in ss) for k in ("work", "cpu_busy_pct", "mem_avail_mib",
                                                               "vmalloc_used_kib"))
            ratio = w / bw if w is not None and bw else None
            rows.append({"round": r, "config": c, "work": w, "ratio": ratio, "cpu": cpu,
                         "cpu_delta": cpu - bc if cpu is not None and bc is not None else None,
                         "mem": mem, "mem_delta": mem - bm if mem is not None and bm is not None else None,
                         "vm": vm / 1024 if vm is not None else None,
                         "vm_delta": (vm - bv_) / 1024 if vm is not None and bv_ is not None else None,
                         "repeat": rep if c == BASE else None})
    summ = []
    for c in configs:
        ss = [s for s in segs if s["config"] == c]
        rr = [x for x in rows if x["config"] == c]
        ratios = [x["ratio"] for x in rr if x["ratio"] is not None]
        med = median(ratios)
        summ.append({
            "config": c, "segments": len(ss), "work": mean(s["work"] for s in ss),
            "ratio_median": med, "ratio_min": min(ratios) if ratios else None,
            "ratio_max": max(ratios) if ratios else None, "rounds": len(ratios),
            "loss": 100 * (1 - med) if med is not None else None,
            "cpu": mean(s["cpu_busy_pct"] for s in ss), "cpu_delta": median(x["cpu_delta"] for x in rr),
            "mem": mean(s["mem_avail_mib"] for s in ss), "mem_delta": median(x["mem_delta"] for x in rr),
            "vm_delta": median(x["vm_delta"] for x in rr),
            "swapin": sum((s["swapin_ps"] or 0) * (s["window_s"] or 0) for s in ss),
            "swapout": sum((s["swapout_ps"] or 0) * (s["window_s"] or 0) for s in ss),
            "swapped": [s for s in ss if s["swapped"]]})
    return rows, summ, repeats


def warnings(meta, host, segs):
    """Problems with the run, most serious first."""
    w = []
    ve, fp, g = num(meta.get("verify_errors")), num(meta.get("final_pass")), num(meta.get("guests"))
    if ve is None:
        w.append("the guests' data verification was not recorded (no verify_errors)")
    elif ve > 0:
        w.append("DATA VERIFICATION FAILED: %d verify errors in the guests' data" % ve)
    if fp is None:
        w.append("how many guests ended with result=PASS was not recorded (no final_pass)")
    elif g is not None and fp < g:
        w.append("only %d of %d guests ended with result=PASS" % (fp, g))
    if meta.get("status", "").strip() != "ok":
        w.append("the run did not end cleanly: status `%s`" % (meta.get("status") or "(missing)"))
    bad = [s for s in segs if s["swapped"]]
    if bad:
        w.append("THE WORKLOAD WAS NOT SWAP-FREE in %d segment(s): %s; the figures below "
                 "include swap traffic, not just the device being on" % (len(bad), "; ".join(
                     "seq %d (round %d, %s: %s+%s pages/s in+out, %s MiB used)"
                     % (s["seq"], s["round"], s["config"], fmt(s["swapin_ps"], "%g"),
                        fmt(s["swapout_ps"], "%g"), fmt(s["swap_used_mib"], "%g")) for s in bad)))
    if host.get("lab_exit", "0") not in ("0", ""):
        w.append("the lab exited with status %s" % host["lab_exit"])
    if host.get("console_problem"):
        w.append("kernel problem on the console: %s" % host["console_problem"])
    return w


def make_plots(out, segs, configs):
    """Draw the PNGs; returns ([(png, title)], note on what failed or None)."""
    for png in PNGS:
        if os.path.exists(os.path.join(out, png[0])):
            os.remove(os.path.join(out, png[0]))
    if not shutil.which("gnuplot"):
        return [], "gnuplot is not installed"
    data = os.path.join(out, "data")
    os.makedirs(data, exist_ok=True)
    series = []
    for c in configs:
        ss = [s for s in segs if s["config"] == c]
        name = "segments-%s.dat" % re.sub(r"[^A-Za-z0-9_.-]", "_", c)
        with open(os.path.join(data, name), "w", encoding="utf-8") as f:
            f.write("# seq round work_mbps cpu_busy_pct (%s)\n" % c)
            for s in ss:
                f.write("%d %d %s %s\n" % (s["seq"], s["round"], fmt(s["work"], "%.4f", "?"),
                                           fmt(s["cpu_busy_pct"], "%.3f", "?")))
        if ss:
            series.append((name, c.replace("'", "")))
    try:
        p = subprocess.run(["gnuplot", "-e", "set terminal"], capture_output=True, text=True,
                           timeout=30, check=False)
        term = "pngcairo" if "pngcairo" in p.stdout + p.stderr else "png"
    except (OSError, subprocess.TimeoutExpired):
        term = "png"
    starts = sorted(min(s["seq"] for s in segs if s["round"] == r) for r in {s["round"] for s in segs})
    arrows = "".join("set arrow from %g, graph 0 to %g, graph 1 nohead dt 2 lc rgb 'gray'\n"
                     % (x - 0.5, x - 0.5) for x in starts[1:])
    made = []
    for png, col, title, long_title, ylabel in PNGS:
        script = ("set terminal %s size 900,500 noenhanced\nset output '../%s'\nset title '%s'\n"
                  "set xlabel 'segment (seq; dashed lines: round starts)'\nset ylabel '%s'\n"
                  "set datafile missing '?'\nset grid\nset key outside right top Left reverse\n"
                  "set xrange [0.5:%g]\nset yrange [0:*]\n%s"
                  % (term, png, long_title, ylabel, max(s["seq"] for s in segs) + 0.5, arrows) + "plot " +
                  ", ".join("'%s' using 1:%d with points pt 7 ps 1.3 title '%s'" % (f, col, t)
                            for f, t in series) + "\n")
        try:
            p = subprocess.run(["gnuplot"], input=script, text=True, cwd=data, capture_output=True,
                               timeout=120, check=False)
            err = " ".join(p.stderr.split())[:300] if p.returncode else None
        except (OSError, subprocess.TimeoutExpired) as e:
            err = str(e)
        path = os.path.join(out, png)
        if err is None and not (os.path.isfile(path) and os.path.getsize(path) > 0):
            err = "no output"
        if err:
            return made, "gnuplot failed on %s: %s" % (png, err)
        made.append((png, title))
    return made, None


def verdict(s, noise):
    """One device's figures in plain words."""
    c = s["config"]
    sw = ("nothing swapped" if not s["swapped"] else
          "BUT SWAP WAS USED in %d segment(s) (%d pages in, %d out)"
          % (len(s["swapped"]), s["swapin"], s["swapout"]))
    nf = "noise floor ±%.1f %%" % (100 * noise) if noise is not None else "noise floor unknown"
    if s["ratio_median"] is None:
        return "**%s** on, %s: no work-rate ratio (no round has work rates of both %s and %s)." % (
            c, sw, c, BASE)
    med = s["ratio_median"]
    text = ("**%s** on, %s: work rate %.2fx no swap (median of %d round%s, range %.2f-%.2f; %s), "
            "CPU %s pp, MemAvailable %s MiB%s. " % (
                c, sw, med, s["rounds"], "" if s["rounds"] == 1 else "s", s["ratio_min"],
                s["ratio_max"], nf, sgn(s["cpu_delta"]), sgn(s["mem_delta"], 0),
                "" if s["vm_delta"] is None else
                ", vmalloc %s MiB (the device's table and buffers, held while it is on)"
                % sgn(s["vm_delta"])))
    if noise is None:
        return text + "No round measured %s twice, so whether this is noise is unknown." % BASE
    if abs(1 - med) <= noise:
        return text + "The work-rate difference is within the noise floor."
    return text + "The work rate shows a %s of %.1f %%, beyond the noise floor." % (
        "loss" if med < 1 else "gain", abs(100 * (1 - med)))


def write_csvs(out, rows, summ, noise, repeats):
    with open(os.path.join(out, "rounds.csv"), "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["round", "config", "work_mbps", "ratio", "cpu_busy_pct", "cpu_delta_pp",
                    "mem_avail_mib", "mem_delta_mib", "noswap_repeat", "vmalloc_used_mib",
                    "vmalloc_delta_mib"])
        for x in rows:
            w.writerow([x["round"], x["config"]] + [
                fmt(v, spec, "") for v, spec in (
                    (x["work"], "%.3f"), (x["ratio"], "%.4f"), (x["cpu"], "%.2f"), (x["cpu_delta"], "%.2f"),
                    (x["mem"], "%.1f"), (x["mem_delta"], "%.1f"), (x["repeat"], "%.4f"),
                    (x["vm"], "%.1f"), (x["vm_delta"], "%.1f"))])
    cols = ("work %.3f ratio_median %.4f ratio_min %.4f ratio_max %.4f loss %.2f cpu %.2f "
            "cpu_delta %.2f mem %.1f mem_delta %.1f swapin %.0f swapout %.0f vm_delta %.1f").split()
    with open(os.path.join(out, "summary.csv"), "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["config", "segments", "work_mbps_mean", "ratio_median", "ratio_min", "ratio_max",
                    "loss_pct_median", "cpu_busy_mean", "cpu_delta_pp_median", "mem_avail_mean",
                    "mem_delta_mib_median", "swapin_pages", "swapout_pages", "vmalloc_delta_mib_median",
                    "noise_floor_pct"])
        for s in summ:
            w.writerow([s["config"], s["segments"]] + [
                fmt(s[k], spec, "") for k, spec in zip(cols[::2], cols[1::2])] + [""])
        xs = [x for _, x in repeats]
        med = median(xs)
        w.writerow([BASE + "_repeat", len(xs), "", fmt(med, "%.4f", ""),
                    fmt(min(xs, default=None), "%.4f", ""), fmt(max(xs, default=None), "%.4f", ""),
                    fmt(100 * (1 - med) if xs else None, "%.2f", "")]
                   + [""] * 7 + [fmt(100 * noise if noise is not None else None, "%.2f", "")])


def report_md(out, meta, host, segs, rows, summ, noise, repeats, warn, notes, pngs, plot_note):
    def m(k):
        return meta.get(k) or "?"
    md = ["# Idle cost of swap devices: %s\n" % m("label")]
    if warn:
        md += ["> **WARNING:** %s\n>" % x for x in warn]
        md[-1] = md[-1][:-2]
        md.append("")
    md.append("The cost of just having a swap device on, with a workload that never needs swap: "
              "%s nested hog guests of %s MiB that fit in RAM ran throughout, while the host VM "
              "switched its swap between %s in palindromic rounds; each configuration is compared "
              "with no swap in the same round.\n" % (m("guests"), m("guest_mib"), m("configs")))
    md += ["- Guests: class %s, profile %s, hog_mem %s, ws %s, period %s; at the end %s of %s "
           "guests PASS, %s verify errors" % (m("class"), m("profile"), m("hog_mem"), m("ws"), m("period"),
                                              meta.get("final_pass", "(not recorded)"), m("guests"),
                                              meta.get("verify_errors", "(not recorded)")),
           "- Rounds: %s, in turn `%s`, %s s observed per segment; %d segments" % (
               m("rounds"), m("order"), m("window_s"), len(segs)),
           "- Host VM: %s MiB, %s vCPUs, swap %s MiB, kernel %s, %s" % (
               m("host_mib"), m("ncpu"), m("swap_mib"), m("kernel"), m("accel")),
           "- Run: %s to %s, status %s; lab exit %s, machine %s, tree %s, lab arguments `%s`; "
           "kernel problems on the console: %s\n" % (
               m("started"), meta.get("finished") or "(unfinished)", m("status"), host.get("lab_exit", "?"),
               host.get("host", "?"), host.get("git_head", "?"), host.get("lab_args", "?"),
               host.get("console_problem") or "none")]
    md.append("## Verdict\n")
    md += [verdict(s, noise) + "\n" for s in summ if s["config"] != BASE]
    md.append("Noise floor: %s (%s measured twice per round; its later segment's work rate over "
              "its earlier one's: %s).\n" % (
                  "±%.1f %%" % (100 * noise) if noise is not None else "unknown", BASE,
                  ", ".join("round %d %.2f" % rx for rx in repeats) or "no round has two"))
    if notes:
        md.append("Notes: " + "; ".join(notes) + ".\n")
    md += ["## Per round\n",
           "Means of each configuration's segments in the round; ratio and deltas against %s of "
           "the same round (ratio = work rate / %s's; Δ CPU in percentage points; Δ MiB of "
           "MemAvailable, negative = RAM the configuration costs; Δ vmalloc: VmallocUsed, the "
           "device's table and buffers). %s repeat: its later segment / its earlier (the noise).\n"
           % (BASE, BASE, BASE),
           "| round | config | work MB/s | ratio | CPU busy %% | Δ CPU pp | MemAvailable MiB | Δ MiB | "
           "Δ vmalloc MiB | %s repeat |" % BASE, "|---|---|---|---|---|---|---|---|---|---|"]
    md += ["| %d | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
        x["round"], x["config"], fmt(x["work"]), fmt(x["ratio"]), fmt(x["cpu"], "%.1f"),
        sgn(x["cpu_delta"]), fmt(x["mem"], "%.0f"), sgn(x["mem_delta"], 0), sgn(x["vm_delta"]),
        fmt(x["repeat"])) for x in rows]
    md += ["", "## Per segment\n",
           "| seq | round | config | t_start s | window s | passes | missed | work MB/s | pass MB/s | "
           "pass s | CPU busy % | guests CPU % | MemAvailable MiB | SwapTotal MiB | swap used MiB | "
           "swapin/s | swapout/s | setup s | vmalloc MiB | note |", "|" + "---|" * 20]
    for s in segs:
        md.append("| %d | %d | %s | %s |" % (s["seq"], s["round"], s["config"], " | ".join(
            fmt(s[k], spec) for k, spec in (
                ("t_start_s", "%.0f"), ("window_s", "%.0f"), ("passes", "%.0f"), ("missed", "%.0f"),
                ("work_mbps", "%.2f"), ("pass_mbps", "%.2f"), ("pass_secs", "%.1f"),
                ("cpu_busy_pct", "%.1f"), ("guests_cpu_pct", "%.1f"), ("mem_avail_mib", "%.0f"),
                ("swap_total_mib", "%.0f"), ("swap_used_mib", "%.0f"), ("swapin_ps", "%.2f"),
                ("swapout_ps", "%.2f"), ("setup_s", "%.1f"))) + " | " + fmt(
            s["vmalloc_used_kib"] / 1024 if s["vmalloc_used_kib"] is not None else None, "%.1f")) + " %s |" % "; ".join(
            n for n, on in (("**swap used**", s["swapped"]), ("no pass: no work rate", s["work"] is None))
            if on))
    md += ["", "## Plots\n"]
    md += ["![%s](%s)\n" % (t, p) for p, t in pngs]
    if plot_note:
        md.append("Plots skipped: %s.\n" % plot_note)
    md += ["## Files\n",
           "- `raw/meta.env`, `raw/segments.csv`, `raw/host.txt`: the run's parameters, one row per "
           "observed segment, the lab's exit status",
           "- `rounds.csv`: one row per round and configuration (means, ratio and deltas against "
           "%s; `noswap_repeat` on %s rows only)" % (BASE, BASE),
           "- `summary.csv`: one row per configuration (medians over rounds; swap pages = pages/s x "
           "window), then a `%s_repeat` row: the noise ratios and, in `noise_floor_pct`, the "
           "noise floor" % BASE,
           "- `work-rate.png`, `cpu-busy.png`, `data/segments-CONFIG.dat`: the plots and their data"]
    with open(os.path.join(out, "REPORT.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(md) + "\n")


def main(argv):
    args = [a for a in argv if not a.startswith("--")]
    bad = [a for a in argv if a.startswith("--") and a != "--no-plots"]
    if len(args) != 1 or bad:
        print("usage: %s DIR [--no-plots]   (DIR holds raw/)" % PROG, file=sys.stderr)
        return 2
    out = os.path.abspath(args[0])
    try:
        meta, host, segs, notes = load(os.path.join(out, "raw"))
    except (Unusable, OSError, csv.Error, UnicodeDecodeError) as e:
        print("%s: error: %s" % (PROG, e), file=sys.stderr)
        return 2
    configs = [c for c in meta.get("configs", "").split(",") if c.strip()]
    configs = [BASE] + [c for c in configs if c != BASE]
    configs += [c for c in dict.fromkeys(s["config"] for s in segs) if c not in configs]
    configs = [c for c in configs if any(s["config"] == c for s in segs)]
    rows, summ, repeats = compute(segs, configs)
    noise = max(abs(1 - x) for _, x in repeats) if repeats else None
    notes += ["round %d has no %s work rate: no ratios for it" % (r, BASE) for r in sorted(
        {s["round"] for s in segs}) if not any(x["round"] == r and x["config"] == BASE
                                               and x["work"] is not None for x in rows)]
    warn = warnings(meta, host, segs)
    if "--no-plots" in argv:
        pngs, plot_note = [], "--no-plots"
    else:
        pngs, plot_note = make_plots(out, segs, configs)
    write_csvs(out, rows, summ, noise, repeats)
    report_md(out, meta, host, segs, rows, summ, noise, repeats, warn, notes, pngs, plot_note)

    print("idle cost of swap devices: %s (%s, status %s, %d segments)" % (
        meta.get("label", "?"), meta.get("started", "?"), meta.get("status", "?"), len(segs)))
    for x in warn:
        print("  WARNING: " + x)
    print("  %-12s %4s %10s %6s %11s %7s %8s %8s" % ("config", "segs", "work MB/s", "ratio", "range",
                                                    "loss %", "CPU pp", "Mem MiB"))
    for s in summ:
        print("  %-12s %4d %10s %6s %11s %7s %8s %8s" % (
            s["config"], s["segments"], fmt(s["work"]), fmt(s["ratio_median"]),
            "%.2f-%.2f" % (s["ratio_min"], s["ratio_max"]) if s["ratio_min"] is not None else "n/a",
            fmt(s["loss"], "%.1f"), sgn(s["cpu_delta"]), sgn(s["mem_delta"], 0)))
    print("  noise floor (%s repeat): %s" % (BASE, "±%.1f %%" % (100 * noise) if noise is not None
                                              else "unknown (no round measured it twice)"))
    for s in summ:
        if s["config"] != BASE and s["ratio_median"] is not None and noise is not None:
            print("  %s: %s" % (s["config"], "within the noise floor" if abs(1 - s["ratio_median"]) <= noise
                                else "beyond the noise floor"))
    if plot_note:
        print("  plots skipped: %s" % plot_note)
    print("  report: %s" % os.path.join(out, "REPORT.md"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
