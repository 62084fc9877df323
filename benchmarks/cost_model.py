"""How long the proof of an open game may take, from how its lower bound has risen so far.

The exact search's lower bound on the total rises round after round (every class of every first
guess keeps a proven bound, see ``engines/exact/anytime.py``); the proof ends when it meets the
optimum, at most the cost of the best strategy known. This script fits that rise on the early
part of a run and extrapolates it to a target:

* ``log``: the bound against the logarithm of the time, ``L = a + b ln t``, fitted by least
  squares on the points of a window; the target is reached at ``exp((target - a) / b)``. The
  rise of the searches measured here slows down a little faster than that (each e-fold of
  time gives less than the one before): the fit is then optimistic.
* ``rate``: the rise per second over the last half of the window, kept constant. The rise
  slows, which makes this early; a proof may also end with a jump as its last classes close,
  which makes both fits late. Neither is a bound: on 5x6 both came out early (docs/cluster.md).

Its input is either the progress lines of a run (``optimal --progress json``: one JSON object
per finished unit on standard error, with ``seconds`` and ``lower_bound``) or a history of
``seconds,lower_bound`` rows (comma-separated, ``#`` for comments), such as
``benchmarks/data/p5c8-history.csv``: the bound after each results run of 5x8, against the
processor seconds of all runs so far.

    python benchmarks/cost_model.py LOG [LOG...] --target 36721 --fit-until 100 [--actual 300]
    python benchmarks/cost_model.py benchmarks/data/p5c8-history.csv --target 178624

With ``--fit-until S`` only the points up to S seconds are fitted (the rest of the run is then
the check: ``--actual`` gives the seconds the proof took). The progress lines also give the
work units' statistics (how many, per second, the spread of their costs).
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
from pathlib import Path


def read_points(path: Path) -> tuple[list[tuple[float, float]], list[float]]:
    """The ``(seconds, lower bound)`` points of a progress log or a history file, and the
    seconds of each work unit run (progress logs only; reused units left out)."""
    points: list[tuple[float, float]] = []
    units: list[float] = []
    for line in path.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("{"):
            try:
                event = json.loads(line)
            except ValueError:
                continue
            if event.get("event") in ("unit", "end") and event.get("lower_bound") is not None:
                points.append((float(event["seconds"]), float(event["lower_bound"])))
            unit = event.get("unit")
            if isinstance(unit, dict) and not unit.get("reused"):
                units.append(float(unit["seconds"]))
        else:
            try:
                seconds, lower = (float(x) for x in line.split(",")[:2])
            except ValueError:  # (another line in the log: /usr/bin/time's, a warning)
                continue
            points.append((seconds, lower))
    return points, units


def read_runs(paths: list[Path]) -> tuple[list[tuple[float, float]], list[float]]:
    """The points of runs continued one after the other on one checkpoint: each run's seconds
    counted from the end of the one before."""
    points: list[tuple[float, float]] = []
    units: list[float] = []
    for path in paths:
        more, seconds = read_points(path)
        offset = points[-1][0] if points else 0.0
        points += [(t + offset, lower) for t, lower in more]
        units += seconds
    return points, units


def fit_log(points: list[tuple[float, float]]) -> tuple[float, float]:
    """``(a, b)`` of ``L = a + b ln t``, least squares over the points (one per distinct
    bound: a run's many lines at one bound would weigh its flat stretches)."""
    kept = [(t, lower) for i, (t, lower) in enumerate(points) if i == 0 or lower != points[i - 1][1]]
    kept = [(t, lower) for t, lower in kept if t > 0]
    xs = [math.log(t) for t, _ in kept]
    ys = [lower for _, lower in kept]
    if len(xs) < 2:
        raise SystemExit("too few points to fit")
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
    return my - b * mx, b


def recent_rate(points: list[tuple[float, float]], share: float = 0.5) -> float:
    """Bound per second over the last ``share`` of the window (of its time from 0)."""
    end_t, end_l = points[-1]
    start = end_t * (1 - share)
    first = next((p for p in points if p[0] >= start), points[0])
    return (end_l - first[1]) / max(1e-9, end_t - first[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", type=Path, nargs="+", help="progress logs of runs continued, or a history")
    parser.add_argument("--target", type=float, required=True, help="the bound the proof must reach")
    parser.add_argument("--fit-until", type=float, default=None, help="fit only the points up to here")
    parser.add_argument("--fit-from", type=float, default=0.0, help="and from here")
    parser.add_argument("--actual", type=float, default=None, help="the seconds the proof took")
    args = parser.parse_args()

    points, units = read_runs(args.paths)
    until = math.inf if args.fit_until is None else args.fit_until
    window = [p for p in points if args.fit_from <= p[0] <= until]
    t_end, l_end = window[-1]
    a, b = fit_log(window)
    log_t = math.exp((args.target - a) / b) if b > 0 else math.inf
    rate = recent_rate(window)
    rate_t = t_end + (args.target - l_end) / rate if rate > 0 else math.inf
    first_t, first_l = window[0]
    print(f"fitted {len(window)} points, {first_t:.0f}-{t_end:.0f} s: bound {first_l:.0f} -> {l_end:.0f}")
    print(f"log fit: L = {a:.0f} + {b:.1f} ln t; reaches {args.target:.0f} at {log_t:,.0f} s")
    print(f"recent rate: {rate:.3g}/s; reaches {args.target:.0f} at {rate_t:,.0f} s")
    if args.actual is not None:
        ratios = f"log fit {log_t / args.actual:.2f}x, rate {rate_t / args.actual:.2f}x"
        print(f"actual: {args.actual:,.0f} s ({ratios})")
    if units:
        ranked = sorted(units, reverse=True)
        total = sum(units)
        top = ranked[: max(1, len(ranked) // 100)]
        cuts = [statistics.quantiles(units, n=100)[q - 1] for q in (50, 90, 99)]
        print(
            f"units run: {len(units)}, {len(units) / points[-1][0]:.1f}/s of wall time, "
            f"{total:.0f} unit-seconds; "
            f"median {cuts[0]:.3f} s, p90 {cuts[1]:.3f} s, p99 {cuts[2]:.2f} s, longest {ranked[0]:.1f} s; "
            f"the longest 1% hold {sum(top) / total:.0%} of the unit-seconds"
        )


if __name__ == "__main__":
    main()
