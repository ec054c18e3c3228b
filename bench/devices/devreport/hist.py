"""Latency histograms and percentiles: fio's json+ bins and the kernel's
log2 histograms (ramzswap's latency_hist, the rw_page hist triggers)."""
import os


def percentile_from_bins(bins, p):
    """bins: {value_ns: count}; nearest-rank percentile p (0-100)."""
    total = sum(bins.values())
    if total == 0:
        return None
    rank = p / 100.0 * total
    cum = 0
    for v in sorted(bins):
        cum += bins[v]
        if cum >= rank:
            return float(v)
    return float(max(bins))


def hist_percentile(counts, p):
    """counts[b]: ops with latency in [2^b, 2^(b+1)) ns (bucket 0: [0, 2)).
    Linear interpolation inside the bucket that holds the percentile."""
    total = sum(counts)
    if total == 0:
        return None
    rank = p / 100.0 * total
    cum = 0
    for b, c in enumerate(counts):
        if c and cum + c >= rank:
            lo = 0.0 if b == 0 else float(2 ** b)
            hi = float(2 ** (b + 1))
            return lo + (rank - cum) / c * (hi - lo)
        cum += c
    return float(2 ** len(counts))


def read_hist(path):
    h = {"read": [0] * 32, "write": [0] * 32}
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as f:
        for line in f:
            parts = line.split()
            if len(parts) != 3 or parts[0] not in h:
                continue
            b = int(parts[1])
            if 0 <= b < 32:
                h[parts[0]][b] += int(parts[2])
    return h


def cdf_lines(counts):
    """CDF points (upper bound in us, fraction) of a log2 histogram, from the
    bucket before the first non-empty one to the first that reaches 1."""
    total = sum(counts)
    nz = [b for b, c in enumerate(counts) if c]
    if not total:
        return []
    cum, lines = 0, []
    for b in range(max(nz[0] - 1, 0), nz[-1] + 1):
        cum += counts[b]
        lines.append("%.6f %.6f" % (2 ** (b + 1) / 1000.0, cum / total))
    return lines


def bins_cdf_lines(bins):
    """CDF points (latency in us, fraction) of fio's json+ bins {ns: count}."""
    total, cum, lines = sum(bins.values()), 0, []
    for v in sorted(bins):
        cum += bins[v]
        lines.append("%.3f %.6f" % (v / 1000.0, cum / total))
    return lines
