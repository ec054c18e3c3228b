"""The device report's PNG plots (gnuplot), from the data files the
sections wrote into ctx.data."""
import os
import shutil
import subprocess

from .common import TARGET_OVERHEAD, progress, write_dat


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


def has_cairo():
    try:
        p = subprocess.run(["gnuplot", "-e", "set terminal"], capture_output=True, text=True,
                           timeout=30, check=False)
        return "pngcairo" in (p.stdout + p.stderr)
    except (OSError, subprocess.TimeoutExpired):
        return False

def plot(script, data, name, title, pngs):
    """Run one gnuplot script in @data; on success add (name, title) to @pngs."""
    if gnuplot(script, data):
        pngs.append((name, title))


def make_plots(ctx):
    """Plot what the sections collected; returns [(png, title)] of the plots made."""
    pngs = []
    if not shutil.which("gnuplot"):
        return pngs
    progress("plotting with gnuplot")
    data = ctx.data
    head = "set terminal pngcairo size 900,540 noenhanced\n" if has_cairo() else \
        "set terminal png size 900,540 noenhanced\n"
    bars = ("set style data histograms\nset style histogram clustered gap 1\n"
            "set style fill solid 0.8 border -1\n")

    def cdf(files, style, png, title, xlabel, what, caption):
        if not files:
            return
        lines = ", ".join("'%s' using 1:2 with %s lw 2 title '%s'" % (f, style, t) for f, t in files)
        plot(head + "set output '../%s'\nset title '%s'\n" % (png, title) +
             "set logscale x\nset xlabel '%s'\nset ylabel 'fraction of %s'\n" % (xlabel, what) +
             "set yrange [0:1]\nset grid\nset key right bottom\nplot " + lines + "\n",
             data, png, caption, pngs)

    if ctx.iops_dat:
        write_dat(os.path.join(data, "iops.dat"), ["# label ramzswap zram"] + ctx.iops_dat)
        plot(head + "set output '../iops.png'\nset title 'fio 4 KiB IOPS (higher is better)'\n" + bars +
             "set ylabel 'IOPS'\nset yrange [0:*]\nset grid ytics\n"
             "set xrange [-0.6:%g]\n" % (len(ctx.iops_dat) - 0.4) +
             "plot 'iops.dat' using 2:xtic(1) title 'ramzswap', '' using 3 title 'zram'\n",
             data, "iops.png", "fio IOPS per device", pngs)
    cdf(ctx.cdf_files, "steps", "latency-cdf-fio.png", "fio completion latency CDF", "clat (us)",
        "I/Os", "fio clat CDF, both devices")
    cdf(ctx.hist_dat, "linespoints", "latency-hist-ramzswap.png",
        "ramzswap latency_hist CDF (driver time; bucket upper bounds)", "latency (us)", "ops",
        "ramzswap latency histogram as a CDF")
    cdf(ctx.trace_dat, "linespoints", "latency-cdf-swap.png",
        "swap path (.rw_page) latency CDF, both drivers (bucket upper bounds)", "latency (us)",
        "ops", "swap-path latency CDF, both drivers")
    if ctx.mem_dat:
        write_dat(os.path.join(data, "mem.dat"), ["# label ramzswap zram"] + ctx.mem_dat)
        plot(head + "set output '../mem-overhead.png'\n"
             "set title 'memory overhead mem_used_total/compr_data_size (lower is better)'\n" + bars +
             "set yrange [0:*]\nset grid ytics\n"
             "set xrange [-0.6:%g]\n" % (len(ctx.mem_dat) - 0.4) +
             "plot 'mem.dat' using 2:xtic(1) title 'ramzswap', '' using 3 title 'zram', "
             "%g with lines dt 2 lw 2 title 'target %.2f'\n" % (TARGET_OVERHEAD, TARGET_OVERHEAD),
             data, "mem-overhead.png", "memory overhead", pngs)
    return pngs
