"""bench/report's Markdown: the run's header, one section per guest class
(VMs per host, every step, the one-guest overhead, swap latency) and the
method notes. Each function returns (Markdown lines, summary lines) or
Markdown lines."""
import os

from .data import (CONFIG_TITLE, fmt, fnum, lat_in, lat_unit, limit_text,
                   order_key, page_ms, rate_ratio, rate_text, read_csv, read_env, req_kib)


def vcpus_text(n):
    """'1 vCPU', '2 vCPUs' ('? vCPUs' when not recorded)."""
    return f"{n or '?'} vCPU{'' if str(n) == '1' else 's'}"


def load_text(runs):
    """The caveat on the build machine's load, from host-load.csv when recorded."""
    loads = [x for r in runs for x in r.host_load]
    ncpu = max([r.host_ncpu for r in runs] or [0]) or "?"
    # The host VM's vCPUs, as bench/in-vm recorded them (bench/run --smp).
    vcpus = "/".join(sorted({r.meta["ncpu"] for r in runs if r.meta.get("ncpu")})) or "?"
    if not loads:
        return ("The build machine's load was not recorded for this run; its cores may have been "
                "shared with other VMs, which changes work rates and deadline misses.")
    return (f"The build machine's 1-minute load average, taken before and after each "
            f"configuration, ranged from {min(loads):.1f} to {max(loads):.1f} on its "
            f"{ncpu} cores (each lab VM has {vcpus_text(vcpus)}); where it exceeds the core count, "
            "configurations were measured under different CPU contention, and work rates and "
            "deadline misses are the most affected.")


def zpage_text(v):
    """ramzswap's max_zpage_size as bench/in-vm set it (runs before the
    option existed used the driver's default)."""
    return "PAGE_SIZE/2 (the driver's default)" if v in (None, "", "default") else f"{v} bytes"


def compaction_text(m):
    """The host VM's memory compaction settings bench/in-vm ran with (runs
    before --host-compaction kept the kernel's and did not record them)."""
    if "thp_defrag" not in m:
        return "host memory compaction as the kernel sets it (not recorded)"
    return (f"host THP defrag `{m['thp_defrag']}`, compaction_proactiveness "
            f"{m.get('compaction_proactiveness', '?')}"
            + (" (compaction off: under TCG it stalled CPUs)" if m.get("host_compaction") == "off" else ""))


def swap_area_text(m):
    """The class's swap area size (meta.env swap_mib, swap_factor)."""
    mib = m.get("swap_mib")
    if not mib:
        return "swap areas not recorded"
    return f"swap areas {m.get('swap_factor', '2')}x host RAM ({mib} MiB)"


def invocations_text(out, runs):
    """The kit's commit and, for a run bench/run --resume went on with, which
    invocation ran which configurations (from run.env, invocations.csv and
    each CLASS/cfg/CONFIG/invocation)."""
    kit = read_env(os.path.join(out, "run.env")).get("kit")
    inv = read_csv(os.path.join(out, "invocations.csv"))
    text = []
    if kit:
        text.append(f"Kit commit `{kit}`.")
    if len(inv) > 1:
        ran = {}
        for r in runs:
            for c in r.configs:
                p = os.path.join(r.dir, "cfg", c, "invocation")
                if os.path.exists(p):
                    with open(p) as f:
                        ran.setdefault(f.read().strip(), []).append(f"{r.label}/{c}")
        commits = {i.get("commit") for i in inv if i.get("commit")}

        def commit(i):
            return f", commit `{i['commit'][:12]}`" if len(commits) > 1 and i.get("commit") else ""
        parts = [f"{i.get('invocation')} ({i.get('kind')}, {i.get('started')}{commit(i)}): "
                 f"{', '.join(ran.get(i.get('invocation'), [])) or 'nothing new'}" for i in inv]
        text.append(f"**This run took {len(inv)} invocations of bench/run** (`--resume` after an "
                    "interruption, same code and settings"
                    + (" (the commits differ in documentation only)" if len(commits) > 1 else "")
                    + "; each configuration ran in one "
                    "freshly booted host VM in one of them, so configurations of different "
                    "invocations shared the machine with different neighbours): "
                    + "; ".join(parts) + ".")
    return [" ".join(text) + "\n"] if text else []


def hist_cell(x):
    """avg/p50/p99 µs of a latency.csv latency_hist row."""
    if not x:
        return "–"
    return f"{fnum(x['avg_ms'], 0) * 1000:.1f} / {x['p50_us']} / {x['p99_us']}"


def diskstats_cells(x):
    """Requests, KiB per request, ms per request and ms per 4 KiB of a
    latency.csv diskstats row."""
    if not x:
        return "– | – | – | –"
    return (f"{x['ios']} | {fmt(req_kib(x))} | {x['avg_ms']} | "
            f"{fmt(page_ms(x), 4)}")


def header(out, runs):
    """The title, the host VM, the stop rules and the invocations."""
    md = []
    summ = []
    run_name = os.path.basename(out)
    md.append(f"# ramzswap kit: VM density and swap latency, run `{run_name}`\n")
    m0 = runs[0].meta
    md.append(
        f"Host VM: {m0.get('host_mib', '?')} MiB RAM, {m0.get('ncpu', '?')} vCPUs, kernel "
        f"{m0.get('kernel', '?')}, accelerator **{m0.get('accel', '?')}** (under TCG everything, "
        "nested guests included, runs about 20x slower than native). Guests are nested KVM "
        "guests started through libvirt (`libvirt/guestctl`), one at a time; each configuration "
        "runs in a freshly booted host VM of the same size (per-configuration files in "
        "`CLASS/cfg/CONFIG/`, console logs included); each guest's hog "
        "touches its working set once per period and verifies every page it touches. Swap "
        "areas: zram's and ramzswap's disksize, and the disk under disk swap and zswap, are "
        "the same size, given per class (2x host RAM by default). Raw data: the CSV files "
        "beside this report and in each class directory.\n")
    md.append("Stop rules: a guest OOM-killed, vanished or died, the host VM stalled (a kernel "
              "problem on its console or the lab's timeout: the density is then the last held "
              "step, marked 'host:'), a verification error, more than 5% of "
              "period deadlines missed in the observation window (passes that never ended "
              "count as missed), or the per-configuration time limit (then the density is a "
              "lower bound, marked ≥). A density is also a lower bound when the QEMU emulator "
              "fault killed the host VM, or when a guest died and the host traced SVM shutdown "
              "exits for it (a nested triple fault: under TCG these hit zram, disk swap and "
              "ramzswap alike at high density, and no guest has reported a verification error), "
              "and when the configuration's swap area was full when it stopped (the area's "
              "configured size, not the host's RAM, held the count; a verification error "
              "still counts). Density = the largest guest count that held.\n")
    md.extend(invocations_text(out, runs))
    summ.append(f"ramzswap kit density benchmark, run {run_name} "
                f"({m0.get('host_mib', '?')} MiB host, {m0.get('accel', '?')})")
    return md, summ


def class_intro(r):
    """A guest class's settings, how its lab runs ended, and its CPU bound."""
    md = []
    m = r.meta
    md.append(f"\n## {r.label}: {m.get('class', '?')} guests, profile `{m.get('profile', '?')}`\n")
    md.append(
        f"Guest: {m.get('guest_mib', '?')} MiB, hog mem {m.get('hog_mem', '?')}, working set "
        f"{m.get('ws', '?')} (drift {m.get('drift', '0')} working sets per pass, "
        f"{m.get('pattern', 'seq')} access), "
        f"period {m.get('period', '?')} s, window {m.get('window', '?')} periods, "
        f"ramzswap max_zpage_size {zpage_text(m.get('rzs_max_zpage'))}, "
        f"{compaction_text(m)}, "
        f"{swap_area_text(m)}, "
        f"{m.get('config_time', '?')} s per configuration, started {m.get('started', '?')}, "
        f"finished {m.get('finished', 'not recorded (run cut short)')}.")
    if r.lab.get("lab_exit", "0") not in ("0", ""):
        md.append(f" **The lab run ended with status {r.lab['lab_exit']}**"
                  f" ({r.lab.get('console_problem') or 'see console.log'}); configurations "
                  "without a row below did not run.")
    if r.lab.get("retried"):
        md.append(f" Re-run from a fresh host VM because the emulator fault cut the first attempt short: "
                  f"{r.lab['retried'].strip().rstrip(';')} (first attempt kept in "
                  "`cfg/CONFIG.attempt1/`).")
    if r.lab.get("first_attempt_used", "").strip():
        md.append(" The first attempt held more guests than the re-run before a stop that was not "
                  "memory's, so its figures are the ones below (both counts are lower bounds): "
                  f"{', '.join(r.lab['first_attempt_used'].split())}.")
    md.append("\n")
    busy = r.cpu_busy_bound()
    cpu_c, cpu_secs, cpu_n = r.cpu_bound()
    if busy is not None:
        bc, bk, bpct, bn = busy
        md.append(
            f"CPU bound: with {bk} guests ({bc}, no swap traffic in the window) the host VM's CPU "
            f"({vcpus_text(m.get('ncpu'))}) was {bpct:.1f}% busy, so by CPU alone it could serve about "
            f"**{bn} guests** (that count scaled to 100% busy; passes miss deadlines before that), "
            "against the memory-bound counts below." +
            guests_cpu_text(r, bc, bk, bpct) +
            (f" From one guest's pass ({cpu_secs:.2f} s of {m.get('period')} s, {cpu_c}) it would "
             f"be {cpu_n}: idle nested guests cost CPU too." if cpu_n is not None else "") +
            (" With a drifting working set, once the host swaps, every pass also pays for "
             "faulting its window back in (see the work rates of the later steps)."
             if fnum(m.get("drift"), 0) > 0 else "") + "\n")
    elif cpu_n is not None:
        md.append(
            f"CPU bound: with one guest ({cpu_c}) a working-set pass took {cpu_secs:.2f} s of a "
            f"{m.get('period')} s period, so {vcpus_text(m.get('ncpu'))} could serve about **{cpu_n} guests** "
            "by CPU alone, against the memory-bound counts below." +
            (" With a drifting working set this is optimistic: once the host swaps, every pass "
             "also pays for faulting its window back in (see the work rates of the later steps)."
             if fnum(m.get("drift"), 0) > 0 else "") + "\n")
    return md


def guests_cpu_text(r, c, k, busy):
    """How much of the CPU bound's window the guests themselves took."""
    g = r.guests_cpu(c, k)
    if g is None or g <= 0:
        return ""
    other = max(busy - g, 0.0)
    return (f" The guests' QEMU processes took {g:.1f}% of the CPU in that window and the host's "
            f"own work (this benchmark's monitoring, libvirt, reclaim) {other:.1f}%; if that part "
            f"stayed as it was, the guests alone would fit about **{int(k * (100 - other) / g)}**.")


def density_table(r):
    """VMs per host and work rate per configuration, and its summary lines."""
    md = []
    summ = []
    md.append("\n### VMs per host and work rate\n")
    md.append("Work rate: MB a guest touched per second of pass time, over all passes of "
              "the window at that guest count (total MB / total seconds). The mean of the "
              "per-pass rates is shown beside it; a few fast passes dominate that mean.\n")
    md.append("| configuration | VMs per host | stopped by | work MB/s (per guest) | mean pass MB/s | "
              "aggregate MB/s | missed % | verify errors | all pages verified at end | peak swap MiB | "
              "device orig/compr/used MiB | boot+fill s |")
    md.append("|---|---|---|---|---|---|---|---|---|---|---|---|")
    summ.append(f"  {r.label}: VMs per host (work MB/s per guest)")
    line = []
    for c in r.configs:
        row = r.density.get(c)
        st = r.status(c)
        if not row or st != "ok":
            note = (row or {}).get("note", "") if row else ""
            md.append(f"| {CONFIG_TITLE.get(c, c)} | {st} | {note} | | | | | | | | | |")
            line.append(f"{c}={'n/a' if st == 'unavailable' else st}")
            continue
        d = fnum(row["density"], 0)
        lim = limit_text(row)
        ge = "≥" if r.bounded(c) else ""
        started = int(fnum(row.get("guests_started"), 0))
        fin = ""
        if lim in ("time", "max"):
            fin = f"{row.get('final_pass', '0')}/{started} PASS"
        else:
            fin = "no (guests destroyed)"
        if full := r.swap_full(c):
            lim += f"; the swap area was full ({int(full[0])} of {int(full[1])} MiB)"
        md.append(
            f"| {CONFIG_TITLE.get(c, c)} | **{ge}{int(d)}** | {lim} | {rate_text(r.step(c, int(d)))} | "
            f"{fmt(fnum(row['pass_mbps']))} | "
            f"{fmt(fnum(row['agg_mbps']))} | {fmt(fnum(row['miss_pct']), 1)} | {row['verify_errors']} | "
            f"{fin} | {row['swap_used_mib']} | {row['mm_orig_mib']}/{row['mm_compr_mib']}/{row['mm_used_mib']} | "
            f"{row['boot_s']} |")
        line.append(f"{c}={ge}{int(d)} ({rate_text(r.step(c, int(d)))})")
    for i in range(0, len(line), 4):
        summ.append("    " + "  ".join(line[i:i + 4]))
    return md, summ


def busy_cell(s, has_gcpu):
    """A step's host CPU busy %, with the guests' part in brackets."""
    busy = s.get("cpu_busy_pct") or "–"
    return f"{busy} ({s.get('guests_cpu_pct') or '–'})" if has_gcpu else busy


def steps_table(r):
    """Every step (guest count) of every configuration, folded."""
    md = []
    md.append("\n<details><summary>Every step (guest count, window)</summary>\n")
    # Runs made before bench/in-vm recorded the host VM's CPU busy share
    # keep their table as it was.
    has_busy = any(s.get("cpu_busy_pct") for s in r.steps)
    has_gcpu = any(s.get("guests_cpu_pct") for s in r.steps)
    md.append("| configuration | guests | passes | missed | short | missed % | work MB/s | mean pass s | "
              "mean pass MB/s | aggregate MB/s | MemAvailable MiB | swap used MiB | "
              "device orig/compr/used MiB | pages swapped in/out per s | " +
              (("host CPU busy % (guests) | " if has_gcpu else "host CPU busy % | ") if has_busy else "") +
              "held |")
    md.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|" + ("---|" if has_busy else ""))
    for s in sorted(r.steps, key=lambda s: (order_key(s["config"]), int(s["guests"]))):
        md.append(f"| {s['config']} | {s['guests']} | {s['passes']} | {s['missed']} | {s['shortfall']} | "
                  f"{s['miss_pct']} | {rate_text(s)} | {s['pass_secs']} | {s['pass_mbps']} | "
                  f"{s['agg_mbps']} | {s['mem_avail_mib']} | "
                  f"{s['swap_used_mib']} | {s['mm_orig_mib']}/{s['mm_compr_mib']}/{s['mm_used_mib']} | "
                  f"{s.get('swapin_ps') or '–'} / {s.get('swapout_ps') or '–'} | " +
                  (f"{busy_cell(s, has_gcpu)} | " if has_busy else "") +
                  f"{'yes' if s['ok'] == '1' else 'no'} |")
    md.append("\n</details>\n")
    return md


def overhead_table(r):
    """Work rate with one guest (no swap needed) against no swap: the cost
    of having the device on."""
    md = []
    base = r.step("noswap", 1)
    if base:
        md.append("\n### Overhead with one guest (no swap needed)\n")
        md.append("Work rate of the first guest alone, when the host has free memory and "
                  "should not swap, against the same step without swap. These steps ran in "
                  "separate host VMs, so the difference is mostly noise under TCG; "
                  "`bench/idle-cost` measures the cost of the device being on in one VM "
                  "(`make bench` runs it after this benchmark).\n")
        md.append("| configuration | work MB/s | vs no swap | swap used MiB |")
        md.append("|---|---|---|---|")
        for c in r.configs:
            s = r.step(c, 1)
            if not s:
                continue
            q = rate_ratio(s, base)
            rel = f"{100 * (q - 1):+.1f}%" if q is not None else "–"
            md.append(f"| {CONFIG_TITLE.get(c, c)} | {rate_text(s)} | {rel} | {s['swap_used_mib']} |")
    return md


def latency_table(r):
    """Swap request latency per configuration, and against the hdd."""
    md = []
    md.append("\n### Swap request latency\n")
    md.append("From `/proc/diskstats` of the swap device (milliseconds spent per completed "
              "request, queueing included; for zswap the disk behind it) and from ramzswap's "
              "`latency_hist` (one entry per 4 KiB page; log2 buckets: p50/p99 are bucket upper "
              "bounds, the average uses bucket midpoints). Requests differ in size (the kernel "
              "swaps a transparent huge page out as one 2 MiB request where it can), so the "
              "time per 4 KiB moved is shown beside the time per request.\n")
    md.append("| configuration | device | reads | read KiB/req | read avg ms | read ms/4 KiB | "
              "writes | write KiB/req | write avg ms | write ms/4 KiB | "
              "hist read avg/p50/p99 µs | hist write avg/p50/p99 µs |")
    md.append("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for c in r.configs:
        rd = r.lat(c, "diskstats", "read")
        wr = r.lat(c, "diskstats", "write")
        hr = r.lat(c, "latency_hist", "read")
        hw = r.lat(c, "latency_hist", "write")
        if not (rd or hr):
            continue
        md.append(f"| {CONFIG_TITLE.get(c, c)} | {(rd or hr)['device']} | {diskstats_cells(rd)} | "
                  f"{diskstats_cells(wr)} | {hist_cell(hr)} | {hist_cell(hw)} |")

    ratio_lines = []
    for c in ("zram", "ramzswap", "ramzswap-bk", "zswap", "ssd"):
        parts = []
        for op in ("read", "write"):
            unit = lat_unit(r, op, c, "hdd")
            a, b = lat_in(r, c, op, unit), lat_in(r, "hdd", op, unit)
            if a is not None and b:
                parts.append(f"{op} {a:.4f} vs {b:.4f} {unit} = 1/{b / a:.0f}" if a > 0
                             else f"{op} <0.0001 vs {b:.4f} {unit}")
        if parts:
            ratio_lines.append(f"- {CONFIG_TITLE.get(c, c)} vs hdd: " + "; ".join(parts))
    if ratio_lines:
        md.append("\nLatency relative to the hdd-profile disk in the same run:\n")
        md.extend(ratio_lines)
    return md


def class_section(r):
    """One guest class: its settings, tables and latency ratios."""
    md = class_intro(r)
    dens_md, summ = density_table(r)
    md += dens_md + steps_table(r) + overhead_table(r) + latency_table(r)
    return md, summ


def method_section(runs):
    """How the benchmark measures, and its caveats."""
    md = []
    md.append("\n## Method and caveats\n")
    md.append(
        "- bench/run boots one fresh lab host VM per configuration (same RAM and disks); the "
        "configurations run one after another. (Runs of bench/in-vm with several configurations "
        "run them one after another in one VM, each starting from no swap, no guests and dropped "
        "caches.)\n"
        "- Work rate is MB touched per second of pass time (each touch verifies and rewrites "
        "a page): the MB of every working-set pass in the observation window over their seconds. "
        "The mean of the hog's per-pass MB/s is shown too, but not used for targets: one fast pass "
        "outweighs many slow ones in it. Aggregate is MB touched per second of wall time by all "
        "guests together.\n"
        "- The 1-guest step shows the cost of just having the device on, between separate VMs: "
        "nothing should be swapped then (see the swap used column). `bench/idle-cost` measures it "
        "in one VM, with the swap switched under the same guests.\n"
        "- Under TCG, CPU work (compression included) is inflated ~20x while the hdd profile is a "
        "real throttle (150 IOPS), so ratios against the disk understate native ones.\n"
        "- zswap's compressed pool is not a block device: its diskstats are those of the hdd behind it.\n"
        f"- {load_text(runs)}\n"
        "- A stop on a single missed deadline is possible when a window holds few passes (e.g. 1 of "
        "9 = 11%); the rule is applied as specified, not relaxed.\n"
        "- diskstats CDFs use interval means, not per-request latencies; only ramzswap has per-request "
        "histograms.\n")
    return md
