"""bench/report's PNG plots (gnuplot): VMs per host, and swap latency CDFs.
The plot data files are written beside them."""
import os
import subprocess
import sys

from .data import CONFIG_TITLE, fnum, order_key, read_csv

def gnuplot(script, cwd):
    try:
        subprocess.run(["gnuplot"], input=script, text=True, cwd=cwd, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=60)
        return True
    except (OSError, subprocess.SubprocessError) as e:
        sys.stderr.write(f"bench/report: gnuplot failed: {e}\n")
        return False


def plot_density(runs, out):
    configs = sorted({c for r in runs for c in r.configs}, key=order_key)
    dat = os.path.join(out, "plot-density.dat")
    with open(dat, "w") as f:
        f.write("config " + " ".join(r.label for r in runs) + "\n")
        for c in configs:
            vals = []
            for r in runs:
                d = r.dens(c)
                vals.append("?" if d is None else str(int(d)))
            f.write(f'"{CONFIG_TITLE.get(c, c)}" ' + " ".join(vals) + "\n")
    cols = " ,".join(
        f" 'plot-density.dat' using {i + 2}:xtic(1) title '{r.label}'" for i, r in enumerate(runs))
    script = f"""set terminal pngcairo size 1000,520 noenhanced
set output 'density.png'
set title 'VMs per host (largest guest count that held)'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set ylabel 'guests'
set yrange [0:*]
set offsets 0, 0, 1, 0
set xtics rotate by -25
set key top left
set datafile missing '?'
set grid ytics
plot {cols}
"""
    return gnuplot(script, out)


def plot_latency(runs, out):
    """CDFs: ramzswap latency_hist buckets, and diskstats per-interval means."""
    series = []
    for r in runs:
        for c in r.configs:
            hist = os.path.join(r.dir, f"hist-{c}.txt")
            if os.path.exists(hist):
                counts = {"read": [0] * 32, "write": [0] * 32}
                with open(hist) as f:
                    for line in f:
                        p = line.split()
                        if len(p) == 3 and p[0] in counts and 0 <= int(p[1]) < 32:
                            counts[p[0]][int(p[1])] += int(p[2])
                for op, cnt in counts.items():
                    tot = sum(cnt)
                    if not tot:
                        continue
                    nz = [b for b, n in enumerate(cnt) if n]
                    fn = f"plot-cdf-hist-{r.name}-{c}-{op}.dat"
                    acc = 0
                    with open(os.path.join(out, fn), "w") as f:
                        f.write(f"{2 ** nz[0] / 1e6:.9g} 0\n")
                        for b in range(nz[0], nz[-1] + 1):
                            acc += cnt[b]
                            f.write(f"{2 ** (b + 1) / 1e6:.9g} {acc / tot:.6f}\n")
                    series.append((op, fn, f"{r.label} {c} (latency_hist)"))
            ds = read_csv(os.path.join(r.dir, f"diskstats-{c}.csv"))
            for op, ios_k, ms_k in (("read", "reads", "read_ms"), ("write", "writes", "write_ms")):
                pts = []
                for a, b in zip(ds, ds[1:]):
                    dn = fnum(b[ios_k], 0) - fnum(a[ios_k], 0)
                    dt = fnum(b[ms_k], 0) - fnum(a[ms_k], 0)
                    if dn > 0:
                        pts.append((dt / dn, dn))
                if not pts:
                    continue
                pts.sort()
                tot = sum(n for _, n in pts)
                fn = f"plot-cdf-ds-{r.name}-{c}-{op}.dat"
                acc = 0
                with open(os.path.join(out, fn), "w") as f:
                    f.write(f"{max(pts[0][0], 1e-4):.6g} 0\n")
                    for v, n in pts:
                        acc += n
                        f.write(f"{max(v, 1e-4):.6g} {acc / tot:.6f}\n")
                series.append((op, fn, f"{r.label} {c} (diskstats)"))
    if not series:
        return False
    script = """set terminal pngcairo size 1200,560 noenhanced
set output 'latency-cdf.png'
set multiplot layout 1,2 title 'Swap request latency CDFs (latency_hist: per request; diskstats: mean of each 2-s interval, weighted by requests)' font ',10'
set logscale x
set format x '%g'
set xlabel 'latency (ms)'
set ylabel 'fraction of requests'
set yrange [0:1.02]
set key bottom right font ',8'
set grid
"""
    for op in ("read", "write"):
        sel = [(fn, t) for o, fn, t in series if o == op]
        script += f"set title 'swap {op}s'\n"
        if sel:
            script += "plot " + ", ".join(f"'{fn}' using 1:2 with steps lw 2 title '{t}'" for fn, t in sel) + "\n"
        else:
            script += "unset key\nplot [0.001:1] 2 notitle\nset key\n"
    script += "unset multiplot\n"
    return gnuplot(script, out)
