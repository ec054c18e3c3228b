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
import os
import sys

from devreport.common import TARGET_OVERHEAD, Context, fmt, num, progress, read_kv
from devreport.diskstats import load_diskstats
from devreport.fio import fio_section
from devreport.memory import memory_section
from devreport.plots import make_plots
from devreport.swap import latency_hist_section, rwpage_section, swap_load_text, swap_section

LABELS = {
    "swap_throughput_time": "swap_throughput (wall s, ratio zram/ramzswap)",
    "swap_verified": "swap run verified every page (1 = yes)",
}


def header(ctx, run):
    """The report's title and what ran: the VM, the tools, the phases."""
    meta, host = ctx.meta, ctx.host
    md = ["# Device benchmark: ramzswap vs zram (%s)\n" % run]
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
    return md


def targets_section(ctx):
    """Every ratio that has a target, with its verdict, and the console check."""
    md = ["## Targets\n",
          "Ratios are ramzswap/zram (for the swap run's throughput: zram's wall time over "
          "ramzswap's). On this shared 2-core machine under TCG the same ratio moves by about "
          "10% between ABBA pairs and between runs (see the per-pair columns below), so a "
          "ratio within 0.9-1.1 is a tie rather than a win or a loss.\n",
          "| metric | alg | ramzswap | zram | ratio | target | status |",
          "|---|---|---|---|---|---|---|"]
    for r in ctx.summ.rows:
        if r["target"] is None:
            continue
        tgt = (">= " if r["higher"] else "<= ") + "%g" % r["target"]
        md.append("| %s | %s | %s | %s | %s | %s | %s |" % (
            LABELS.get(r["metric"], r["metric"].replace(
                "_ramzswap_vs_target", " (target on ramzswap's own value)")),
            r["alg"], fmt(r["ramzswap"], 3), fmt(r["zram"], 3),
            fmt(r["ratio"], 3), tgt, r["status"]))
    problem = ctx.host.get("console_problem") or ""
    md.append("| kernel problems on the console | | | | | none | %s |"
              % ("NOT met: " + problem if problem else "met"))
    return md


def files_section(pngs):
    md = []
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
    return md


def print_summary(ctx, run):
    """The one-screen summary on stdout."""
    meta, host = ctx.meta, ctx.host
    print("ramzswap vs zram device benchmark: %s (%s)" % (run, meta.get("started", "?")))
    print("  VM: %s, %s vCPUs, %s MiB; lab exit %s; console problems: %s" % (
        meta.get("accel", "?"), meta.get("cpus", "?"), int(num(meta.get("mem_total_kb"), 0) // 1024),
        host.get("lab_exit", "?"), host.get("console_problem") or "none"))
    print("  %-34s %-5s %10s %10s %7s  %s" % ("metric", "alg", "ramzswap", "zram", "ratio", "target"))
    for r in ctx.summ.rows:
        if r["target"] is None and not r["metric"].startswith("mem_overhead_"):
            continue
        if r["metric"].endswith("_vs_target"):
            continue
        tgt = ""
        if r["target"] is not None:
            tgt = "%s%g %s" % (">=" if r["higher"] else "<=", r["target"], r["status"])
        print("  %-34s %-5s %10s %10s %7s  %s" % (r["metric"], r["alg"], fmt(r["ramzswap"], 3),
                                                 fmt(r["zram"], 3), fmt(r["ratio"], 3), tgt))
    for r in ctx.summ.rows:
        if r["metric"].endswith("_vs_target"):
            print("  %-34s %-5s %10s %10s %7s  <=%.2f %s" % (
                r["metric"].replace("_ramzswap_vs_target", " (ramzswap)"), r["alg"],
                fmt(r["ramzswap"], 3), "", "", TARGET_OVERHEAD, r["status"]))


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
    ctx = Context(raw, data, meta, read_kv(os.path.join(raw, "host.txt")),
                  [a for a in meta.get("algs", "lzo").split(",") if a], load_diskstats(raw))
    run = os.path.basename(os.path.dirname(out))

    # Sections in this order: memory reads the swap runs, the targets every ratio.
    body = fio_section(ctx)
    body += swap_section(ctx) + rwpage_section(ctx) + latency_hist_section(ctx)
    body += memory_section(ctx)
    md = header(ctx, run) + targets_section(ctx) + [""] + body
    pngs = make_plots(ctx) if plots else []
    md += files_section(pngs)

    ctx.summ.write_csv(os.path.join(out, "summary.csv"))
    with open(os.path.join(out, "REPORT.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(md) + "\n")
    progress("wrote %s/REPORT.md, summary.csv, %d plots" % (out, len(pngs)))
    print_summary(ctx, run)
    print("  report: %s" % os.path.join(out, "REPORT.md"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
