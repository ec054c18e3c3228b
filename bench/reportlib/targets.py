"""bench/report's targets (the issue's, measured and never tuned): per
guest class, ramzswap's density against no swap, disk swap and zram, its
guests' work rate against disk swap's, and its swap latency against
zram's."""
from .data import (CONFIG_TITLE, at_least, fmt, fnum, lat_in, lat_ms, lat_unit, limit_text,
                   rate_ratio, req_kib, work_rate)


def work_rate_target(r, rc):
    """ramzswap configuration rc's guest work rate against each disk swap
    profile's: (True/False, or None without a comparable step; detail)."""
    # Work rate where the host swaps: the largest guest count
    # both configurations ran (held or not); the largest count
    # both held is shown beside it (there the working sets may
    # still fit in RAM, so disk swap is not yet paid for).
    rates, noswap_at = [], []
    for dc in ("hdd", "ssd"):
        if r.dens(dc) is None:
            continue
        ran = {int(x["guests"]) for x in r.steps_of(rc)} & {int(x["guests"]) for x in r.steps_of(dc)}
        if not ran:
            continue
        k = max(ran)
        a, b = r.step(rc, k), r.step(dc, k)
        # A disk that had swapped nothing there (its run ended
        # first) says nothing about swap speed.
        if not fnum(b.get("swap_used_mib"), 0):
            noswap_at.append(f"{dc} had swapped nothing at {k} guests, the largest count both ran "
                             f"(it stopped: {limit_text(r.density.get(dc))})")
            continue
        ratio = rate_ratio(a, b)
        if ratio is None:
            continue
        kh = int(min(r.dens(rc), r.dens(dc)))
        ah, bh = r.step(rc, kh), r.step(dc, kh)
        qh = rate_ratio(ah, bh) if kh != k and ah and bh else None
        held = f"; {qh:.1f}× at {kh} guests, the largest count both held" if qh is not None else ""
        if work_rate(a) is not None and work_rate(b) is not None:
            how = f"{fmt(work_rate(a))} vs {fmt(work_rate(b))} MB/s of pass time"
        else:
            how = "from the mean pass times; this run has no work_mbps"
        how += f", mean pass {a['pass_secs']} vs {b['pass_secs']} s"
        pa, pb = fnum(a["pass_mbps"]), fnum(b["pass_mbps"])
        if pa is not None and pb:
            how += f"; the mean of per-pass rates is {pa:.1f} vs {pb:.1f} MB/s, {pa / pb:.1f}×"
        rates.append((ratio, f"{ratio:.1f}× vs {dc} at {k} guests, the largest count both ran "
                      f"({how}){held}"))
    if rates:
        # Judged against every disk swap profile that swapped.
        return min(q for q, _ in rates) >= 10, " — ".join([d for _, d in rates] + noswap_at)
    return None, " — ".join(noswap_at) or "no common step"


def cpu_target(r):
    """The issue's density rule: CPU contention must not be what limits
    density. The CPU bound (data.Run.cpu_busy_bound: the host VM's busy
    share scaled to 100 %, the host's own work included) against the
    largest density any configuration of the class reached; 'well over'
    is taken as 1.5×. (True/False, or None; detail)."""
    busy = r.cpu_busy_bound()
    dens = {c: d for c in r.configs if (d := r.dens(c)) is not None}
    if busy is None or not dens:
        return None, ("the run recorded no host VM CPU busy share in a window without swap traffic"
                      if busy is None else "no density")
    bc, bk, bpct, bn = busy
    top = max(dens.values())
    who = [c for c, d in dens.items() if d == top]
    top_bound = any(r.bounded(c) for c in who)
    ok, _ = at_least(bn, False, top, top_bound, "the largest density", 1.5)
    return ok, (f"CPU bound {bn} guests ({bk} guests held at {bpct:.1f}% busy, {bc}) vs the "
                f"largest density {'≥' if top_bound else ''}{int(top)} ({', '.join(who)}): "
                f"{bn / top:.1f}×" + ("; that density is a lower bound" if top_bound else ""))


def class_targets(r):
    """The targets of one guest class: a list of (label, target, True/False
    or None when the data leave it open, detail)."""
    targets = []

    def t(name, ok, detail):
        targets.append((r.label, name, ok, detail))

    ns, zr = r.dens("noswap"), r.dens("zram")
    disk = [x for x in (r.dens("hdd"), r.dens("ssd")) if x is not None]

    # The plain device and the one with a backing disk, each on its own.
    for rc in ("ramzswap", "ramzswap-bk"):
        rz = r.dens(rc)
        if rc == "ramzswap-bk" and rz is None:
            continue
        who = CONFIG_TITLE.get(rc, rc)
        if r.meta.get("profile") == "mixed":
            if rz is not None and ns is not None:
                t(f"{who} density ≥ 2× no swap", *at_least(rz, r.bounded(rc), ns, r.bounded("noswap"), "no swap", 2))
            else:
                t(f"{who} density ≥ 2× no swap", None, "missing data")
        if rz is not None and disk:
            dmax = max(disk)
            dbound = any(r.bounded(dc) and r.dens(dc) == dmax for dc in ("hdd", "ssd"))
            t(f"{who} density ≥ disk swap's", *at_least(rz, r.bounded(rc), dmax, dbound, "disk swap"))
            t(f"{who}: guest work rate ≥ 10× disk swap's", *work_rate_target(r, rc))
        else:
            t(f"{who} density ≥ disk swap's", None, f"missing data ({who} or disk configurations not run)")
        if rz is not None and zr is not None:
            t(f"{who} density ≥ zram's", *at_least(rz, r.bounded(rc), zr, r.bounded("zram"), "zram"))
    t("CPU alone allows well over the largest density (≥ 1.5×)", *cpu_target(r))
    for op in ("read", "write"):
        unit = lat_unit(r, op, "ramzswap", "zram")
        a, z, hd = (lat_in(r, c, op, unit) for c in ("ramzswap", "zram", "hdd"))
        if a is not None and z is not None:
            detail = f"ramzswap {a:.4f}, zram {z:.4f} {unit}"
            if hd:
                detail += (f" (hdd {hd:.4f}: ratios 1/{hd / a:.0f} and 1/{hd / z:.0f})"
                           if a > 0 and z > 0 else f" (hdd {hd:.4f})")
            if unit == "ms/4 KiB":
                kr, kz = (req_kib(r.lat(c, "diskstats", op)) for c in ("ramzswap", "zram"))
                detail += (f"; per request {lat_ms(r, 'ramzswap', op):.3f} vs {lat_ms(r, 'zram', op):.3f} ms, "
                           f"requests of {kr:.1f} vs {kz:.1f} KiB on average")
            t(f"swap {op} latency no worse than zram's", a <= z * 1.05, detail)
    return targets


def targets_section(targets):
    """The targets table and its summary lines."""
    md = []
    summ = []
    md.append("\n## Targets\n")
    md.append("Measured, not tuned: a FAIL is reported as it is. Latency comparisons allow 5% "
              "noise.\n")
    md.append("| run | target | result | detail |")
    md.append("|---|---|---|---|")
    summ.append("  targets:")
    for label, name, ok, detail in targets:
        res = "n/a" if ok is None else ("PASS" if ok else "FAIL")
        md.append(f"| {label} | {name} | {res} | {detail} |")
        summ.append(f"    {res:4} {label}: {name} ({detail})")
    return md, summ
