"""Section 3 of the device report: memory overhead (mem_used_total over
compr_data_size) after the fio data, after the mixed fill and at the
swap run's peak, against zram's and the target."""
import glob
import os

from .common import (DEVS, MIN_SWAP_COMPR, PAGE, RZS, TARGET_OVERHEAD, ZRAM, fmt, mib, num,
                     progress, ratio, read_csv)


def overhead(row):
    c, u = num(row.get("compr_data_size")), num(row.get("mem_used_total"))
    return ratio(u, c)


def alloc_overhead(row):
    """Overhead of the allocator alone: raw (huge) pages taken out of both
    mem_used_total and compr_data_size."""
    h = num(row.get("huge_pages"), 0) * PAGE
    return ratio(num(row.get("mem_used_total"), 0) - h, num(row.get("compr_data_size"), 0) - h)


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

def memory_section(ctx):
    """Markdown lines of section 3; fills ctx.summ and ctx.mem_dat. Reads
    ctx.swap_rows (swap_section runs first)."""
    progress("memory overhead")
    raw, meta, summ = ctx.raw, ctx.meta, ctx.summ
    md = ["## 3. Memory overhead (mem_used_total / compr_data_size)\n",
          "| data | alg | device | orig MiB | compr MiB | used MiB | overhead | overhead without huge pages | "
          "orig/used | same pages | huge pages | mean object B |",
          "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    ratio_rows = []
    notes = []
    mm_rows = read_csv(os.path.join(raw, "mm_stat.csv"))
    sets = []
    for phase, label in (("fio", "fio data"), ("mixed", "mixed fill")):
        for alg in ctx.algs:
            rows = {r["dev"]: r for r in mm_rows if r["phase"] == phase and r["alg"] == alg}
            if rows:
                sets.append((label, alg, rows.get(RZS), rows.get(ZRAM), None))
    for alg in sorted({r["alg"] for r in ctx.swap_rows}, key=lambda a: (a not in ctx.algs, a)):
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
        ctx.mem_dat.append('"%s %s" %s %s' % (label.split(" ")[0], alg, fmt(o[RZS], 4), fmt(o[ZRAM], 4)))
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
    return md
