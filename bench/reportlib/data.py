"""bench/report's data: the CSV and env files bench/in-vm and bench/run
write for one guest class (class Run), and the numbers taken from them
(work rates, latencies per 4 KiB, lower bounds)."""
import csv
import math
import os

CONFIG_ORDER = ["noswap", "hdd", "ssd", "zram", "zswap", "ramzswap", "ramzswap-bk"]
CONFIG_TITLE = {
    "noswap": "no swap",
    "hdd": "disk swap (hdd profile)",
    "ssd": "disk swap (ssd profile)",
    "zram": "zram (lzo)",
    "zswap": "zswap (lzo, zbud) + hdd swap",
    "ramzswap": "ramzswap",
    "ramzswap-bk": "ramzswap + hdd backing swap",
}


def read_env(path):
    env = {}
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                line = line.strip()
                if "=" in line and not line.startswith("#"):
                    k, v = line.split("=", 1)
                    env[k] = v
    return env


def read_csv(path):
    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def fnum(v, default=None):
    try:
        if v is None or v == "":
            return default
        x = float(v)
        return x if math.isfinite(x) else default
    except ValueError:
        return default


def fmt(v, nd=1, unit=""):
    if v is None:
        return "–"
    if nd == 0:
        return f"{int(round(v))}{unit}"
    return f"{v:.{nd}f}{unit}"


def order_key(c):
    return CONFIG_ORDER.index(c) if c in CONFIG_ORDER else len(CONFIG_ORDER)


class Run:
    """One bench/in-vm invocation (one guest class and profile)."""

    def __init__(self, d):
        self.dir = d
        self.name = os.path.basename(d)
        self.meta = read_env(os.path.join(d, "meta.env"))
        self.lab = read_env(os.path.join(d, "lab.txt"))
        self.density = {r["config"]: r for r in read_csv(os.path.join(d, "density.csv"))}
        self.steps = read_csv(os.path.join(d, "steps.csv"))
        self.latency = read_csv(os.path.join(d, "latency.csv"))
        # The build machine's 1-minute load average around each configuration (bench/run).
        hl = read_csv(os.path.join(d, "host-load.csv"))
        self.host_load = [fnum(x.get("load1")) for x in hl if fnum(x.get("load1")) is not None]
        self.host_ncpu = max([int(fnum(x.get("ncpu"), 0)) for x in hl] or [0])
        self.configs = [c for c in self.meta.get("configs", "").split(",") if c] or sorted(
            self.density, key=order_key)
        self.label = self.meta.get("label", self.name)

    def steps_of(self, c):
        return [s for s in self.steps if s["config"] == c]

    def step(self, c, k):
        for s in self.steps_of(c):
            if int(s["guests"]) == k:
                return s
        return None

    def dens(self, c):
        r = self.density.get(c)
        if not r or r.get("status") != "ok":
            return None
        return fnum(r.get("density"))

    def status(self, c):
        r = self.density.get(c)
        if r:
            return r.get("status", "?")
        # The configuration's own lab status (runs merged before
        # lab_exit_CONFIG existed have only the first failing one).
        rc = self.lab.get(f"lab_exit_{c}", self.lab.get("lab_exit", "0"))
        if rc not in ("0", ""):
            return f"no result (lab exit {rc}{LAB_EXIT_TEXT.get(rc, '')})"
        return "not run"

    def lat(self, c, source, op):
        for r in self.latency:
            if r["config"] == c and r["source"] == source and r["op"] == op:
                return r
        return None

    def cpu_busy_bound(self):
        """Guests the CPU alone would allow, from the host VM's CPU busy share
        (steps.csv cpu_busy_pct) at the largest guest count that held with
        no swap traffic in its window (under NO_SWAP_PS pages/s in and out;
        of equal counts, the busiest): (config, guests, busy %, bound), the
        bound scaling that count to 100 % busy. None for runs made before
        bench/in-vm recorded the column."""
        best = None
        for s in self.steps:
            busy = fnum(s.get("cpu_busy_pct"))
            if busy is None or busy <= 0 or s.get("ok") != "1":
                continue
            if fnum(s.get("swapin_ps"), NO_SWAP_PS) + fnum(s.get("swapout_ps"), NO_SWAP_PS) >= NO_SWAP_PS:
                continue
            k = int(s["guests"])
            if best is None or (k, busy) > (best[1], best[2]):
                best = (s["config"], k, busy)
        if best is None:
            return None
        c, k, busy = best
        return c, k, busy, int(k * 100 / busy)

    def swap_area(self, c):
        """Configuration c's swap area in MiB: the SwapTotal bench/in-vm
        recorded (density.csv swap_total_mib), or, in runs made before that
        column, zram's and ramzswap's disksize (meta.env swap_mib); None
        when unknown (disk swap in those runs: its whole disk)."""
        total = fnum((self.density.get(c) or {}).get("swap_total_mib"))
        if total:
            return total
        if c in ("zram", "ramzswap", "ramzswap-bk"):
            return fnum(self.meta.get("swap_mib"))
        return None

    def swap_full(self, c):
        """(peak swap used, swap area) in MiB when configuration c's swap
        area filled up (its peak at least SWAP_FULL of it), else None."""
        size = self.swap_area(c)
        peak = fnum((self.density.get(c) or {}).get("swap_used_mib"))
        if size and peak is not None and peak >= SWAP_FULL * size:
            return peak, size
        return None

    def bounded(self, c):
        """Is configuration c's density a lower bound (≥)? When its stop says
        so (lower_bound), and when it stopped, other than on a verification
        error, with its swap area full: the swap area's configured size
        (bench/run's swap=N), not the host's RAM, then held the count."""
        lim = limit_text(self.density.get(c))
        return lower_bound(lim) or (self.swap_full(c) is not None and not lim.startswith("verify"))

    def guests_cpu(self, c, k):
        """The guests' QEMU processes' share of the host VM's CPU in CONFIG's
        K-guest window (steps.csv guests_cpu_pct), or None."""
        s = self.step(c, k)
        return fnum(s.get("guests_cpu_pct")) if s else None

    def cpu_bound(self):
        """Guests the CPU alone would allow, from the 1-guest window."""
        ncpu = fnum(self.meta.get("ncpu"), 2)
        period = fnum(self.meta.get("period"), 0)
        for c in ["noswap"] + self.configs:
            s = self.step(c, 1)
            if s and fnum(s["pass_secs"]):
                secs = fnum(s["pass_secs"])
                return c, secs, int(ncpu * period / secs) if secs > 0 else None
        return None, None, None


# Pages swapped in plus out per second below which a window counts as
# having no swap traffic (Run.cpu_busy_bound).
NO_SWAP_PS = 10

# The share of its swap area a configuration's peak swap use must reach
# for the area to count as full (Run.swap_full): swap is allocated in
# clusters and a little of it can stay free.
SWAP_FULL = 0.99

# host-setup/lab's failure statuses.
LAB_EXIT_TEXT = {"124": ": timed out", "125": ": kernel problem", "126": ": the host VM died"}


def limit_text(r):
    if not r:
        return ""
    lim = r.get("limit", "")
    return lim.replace("|", "/")


def at_least(a, a_bound, b, b_bound, b_name, factor=1):
    """Is density a ≥ factor × density b, when either may be a lower bound
    (≥)? Returns (True/False, or None when the bounds leave it open; detail)."""
    sa, sb = f"{'≥' if a_bound else ''}{int(a)}", f"{'≥' if b_bound else ''}{int(b)}"
    if not a_bound and not b_bound:
        return a >= factor * b, f"{sa} vs {sb}"
    if a_bound and not b_bound and a >= factor * b:
        return True, f"{sa} vs {sb}"
    if b_bound and not a_bound and a < factor * b:
        return False, f"{sa} vs {sb}"
    why = "both are lower bounds" if a_bound and b_bound else (
        f"{b_name}'s is a lower bound" if b_bound else "this one is a lower bound")
    return None, (f"{sa} vs {sb}: {why} (stopped by the time limit, --max-guests, a full swap "
                  "area, the emulator fault or a nested triple fault, not by memory); inconclusive")


def work_rate(s):
    """A step's work rate: MB touched per second of pass time, over every
    pass of its window (work_mbps). Runs made before that column existed
    have only the mean of the per-pass rates (pass_mbps): None then."""
    return fnum((s or {}).get("work_mbps"))


def rate_ratio(a, b):
    """Work rate of step a over step b (None when unknown). Both steps do
    the same MB per pass, so without work_mbps the ratio is b's mean pass
    time over a's. The mean of per-pass rates is not used: one fast pass
    outweighs many slow ones in it."""
    wa, wb = work_rate(a), work_rate(b)
    if wa is not None and wb:
        return wa / wb
    sa, sb = fnum(a.get("pass_secs")), fnum(b.get("pass_secs"))
    if sa and sb is not None:
        return sb / sa
    return None


def rate_text(s):
    """The work rate of a step for tables: work_mbps, or '–' for old runs."""
    return fmt(work_rate(s))


def req_kib(x):
    """Mean KiB per request of a latency.csv row (None before kib was recorded)."""
    kib, ios = fnum((x or {}).get("kib")), fnum((x or {}).get("ios"))
    return kib / ios if kib and ios else None


def page_ms(x):
    """Milliseconds per 4 KiB moved of a latency.csv row: the time of all its
    requests over the pages they moved (None before kib was recorded)."""
    kib, ios, avg = fnum((x or {}).get("kib")), fnum((x or {}).get("ios")), fnum((x or {}).get("avg_ms"))
    return avg * ios / (kib / 4) if kib and ios and avg is not None else None


# The end of a bench/in-vm "died" reason when the host traced SVM shutdown
# exits for that guest's qemu: the nested guest triple-faulted.
TRIPLE_FAULT = "it triple-faulted: the host took "


def lower_bound(lim):
    """The count held but something other than memory ended the run: the
    time limit, --max-guests, a host VM the emulator fault killed, or a
    nested guest that triple-faulted (traced). Under TCG nested guests
    triple-fault at high density with every swap backend (zram, disk and
    ramzswap alike) and no guest ever reported a verification error before
    one, so it is counted as the emulator's, not as the host running out of
    memory; the report says so where it applies."""
    return (lim in ("time", "max") or lim.startswith("emulator fault")
            or (lim.startswith("died:") and TRIPLE_FAULT in lim))



def lat_ms(r, c, op):
    """Mean milliseconds per request of configuration c's swap op (diskstats)."""
    x = r.lat(c, "diskstats", op)
    if not x or not fnum(x["ios"]):
        return None
    return fnum(x["avg_ms"])


def lat_unit(r, op, *cs):
    """Per 4 KiB when every configuration recorded its request sizes
    (kib), else per request (runs from before kib)."""
    if all(page_ms(r.lat(c, "diskstats", op)) is not None for c in cs):
        return "ms/4 KiB"
    return "ms/request"


def lat_in(r, c, op, unit):
    """Configuration c's swap op latency in unit (from lat_unit)."""
    x = r.lat(c, "diskstats", op)
    if not x or not fnum(x["ios"]):
        return None
    return page_ms(x) if unit == "ms/4 KiB" else fnum(x["avg_ms"])
