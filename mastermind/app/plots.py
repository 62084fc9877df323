"""Pictures of strategies: guesses per secret for each strategy, and its gap to the optimum and
to the proven lower bound. Used by ``mastermind plot`` and ``mastermind compare --plot``.

Matplotlib (extra ``plot``) is imported only here and only when a figure is drawn; the figure
is built on the Agg canvas without pyplot, so no global backend state changes.
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from mastermind.core.errors import MastermindError
from mastermind.core.fileio import check_writable, is_stdout, write_atomic
from mastermind.core.words import plural

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from mastermind.app.comparisons import Comparison

PLOT_FORMATS = {".png": "png", ".svg": "svg"}


@dataclass(frozen=True)
class Series:
    """One strategy: its name, secrets solved with 1, 2, ... guesses, and its total."""

    name: str
    histogram: list[int]

    @property
    def total(self) -> int:
        return sum((k + 1) * h for k, h in enumerate(self.histogram))


def comparison_series(result: Comparison) -> list[Series]:
    """The optimum (when found) first, then every strategy of the comparison."""
    series = []
    if result.optimal is not None and result.optimal.get("histogram") is not None:
        series.append(Series("optimal", list(result.optimal["histogram"])))
    series.extend(Series(row.label, list(row.histogram)) for row in result.rows)
    return series


def plot_format(path: str | os.PathLike, *, stdout: bool = True) -> str:
    """``png`` or ``svg`` from the file name; standard output (``-``, ``/dev/stdout``) is SVG,
    and so is a special file without either suffix (``/dev/null``, a pipe: no name to go by).
    ``stdout``: whether the command can write the picture there (the refusal says so).

    >>> from mastermind.app.plots import plot_format
    >>> plot_format("h.PNG"), plot_format("-"), plot_format("/dev/null")
    ('png', 'svg', 'svg')
    """
    if is_stdout(path):
        return "svg"
    fmt = PLOT_FORMATS.get(Path(path).suffix.lower())
    if fmt is None and _special(path):
        return "svg"
    if fmt is None:
        raise MastermindError(
            f"cannot tell the picture format of {path}: name it .png or .svg"
            + (" (or - for SVG on standard output)" if stdout else "")
        )
    return fmt


def _special(path: str | os.PathLike) -> bool:
    """Whether ``path`` is there and not a regular file or a folder (a device, a pipe)."""
    import stat

    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


def check_plot_target(path: str | os.PathLike, *, stdout: bool = True) -> str:
    """Refuse a bad target before any work: its format, its folder, matplotlib present."""
    check_writable(path)
    fmt = plot_format(path, stdout=stdout)
    _matplotlib()
    _load_drawing(fmt)
    return fmt


DRAW_SECONDS = 1.5
"""What drawing a comparison's picture takes once :func:`check_plot_target` has loaded
matplotlib (0.8-1 s for p4c7's seven strategies with the machine busy): a picture drawn
under a time limit is given this much of it."""


def drawing_time_limit(time_limit: float | None) -> float | None:
    """The time the work before a picture may take under ``time_limit`` (the whole
    command's): the drawing's time set aside, half the limit at least.

    >>> from mastermind.app.plots import drawing_time_limit
    >>> drawing_time_limit(10.0), drawing_time_limit(2.0), drawing_time_limit(None)
    (8.5, 1.0, None)
    """
    return None if time_limit is None else max(time_limit - DRAW_SECONDS, time_limit / 2)


def _load_drawing(fmt: str) -> None:
    """Import the drawing's modules before the work (about a second, most of a picture's
    time): a picture drawn at the time limit or after Ctrl-C then costs its rendering only."""
    import matplotlib.figure  # noqa: F401
    from matplotlib.backends import backend_agg  # noqa: F401

    if fmt == "svg":
        from matplotlib.backends import backend_svg  # noqa: F401


def _matplotlib():
    if "MPLCONFIGDIR" not in os.environ and not _writable_config_home():
        # matplotlib would fall back to a temporary folder itself, with warnings on stderr
        import tempfile

        os.environ["MPLCONFIGDIR"] = tempfile.mkdtemp(prefix="matplotlib-")
    try:
        import matplotlib
    except ImportError:
        raise MastermindError(
            "drawing needs matplotlib, which is not installed: pip install 'mastermind-strategies[plot]'"
        ) from None
    return matplotlib


def _writable_config_home() -> bool:
    """Whether matplotlib can keep its settings and font cache where it looks first (made
    here if missing, as matplotlib would)."""
    home = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    folder = os.path.join(home, "matplotlib")
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError:
        return False
    return os.access(folder, os.W_OK | os.X_OK)


def guesses_figure(
    title: str, series: Sequence[Series], optimal_total: int | None, lower_bound: int | None
) -> Figure:
    """Left: secrets per number of guesses, one bar group per strategy, log scale, every
    count written on its bar. Right: each strategy's total minus the optimum and minus the
    lower bound (either left out when unknown)."""
    if not series:
        raise MastermindError("nothing to plot: no strategy given")
    _matplotlib()
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    longest = max(len(s.histogram) for s in series)
    fig = Figure(figsize=(13.0, 5.5), layout="constrained")
    FigureCanvasAgg(fig)
    hist_ax, gap_ax = fig.subplots(1, 2, width_ratios=[2.3, 1])
    width = 0.84 / len(series)
    colours = [f"C{i % 10}" for i in range(len(series))]
    for i, (s, colour) in enumerate(zip(series, colours)):
        xs = [k + 1 + (i - (len(series) - 1) / 2) * width for k in range(len(s.histogram))]
        bars = hist_ax.bar(xs, s.histogram, width=width, label=s.name, color=colour)
        hist_ax.bar_label(
            bars, labels=[str(h) if h else "" for h in s.histogram], fontsize=7, rotation=90, padding=2
        )
    hist_ax.set_yscale("log")
    top = max(max(s.histogram) for s in series)
    hist_ax.set_ylim(0.7, top * 8)  # room above the tallest bar for its label
    hist_ax.set_xticks(range(1, longest + 1))
    hist_ax.set_xlabel("guesses needed")
    hist_ax.set_ylabel("secrets (log scale)")
    hist_ax.set_title("secrets solved with k guesses")
    hist_ax.legend(fontsize=8, loc="upper left")

    names = [s.name for s in series]
    rows = list(range(len(series)))
    height = 0.38
    drawn = []
    if optimal_total is not None:
        gaps = [s.total - optimal_total for s in series]
        bars = gap_ax.barh(
            [r - height / 2 for r in rows],
            gaps,
            height=height,
            color="#d62728",
            label=f"to the optimum ({optimal_total})",
        )
        gap_ax.bar_label(
            bars, labels=[f"+{g} ({100 * g / optimal_total:.1f}%)" for g in gaps], fontsize=7, padding=2
        )
        drawn.extend(gaps)
    if lower_bound is not None:
        gaps = [s.total - lower_bound for s in series]
        bars = gap_ax.barh(
            [r + height / 2 for r in rows],
            gaps,
            height=height,
            color="#7f7f7f",
            label=f"to the lower bound ({lower_bound})",
        )
        gap_ax.bar_label(bars, labels=[f"+{g}" for g in gaps], fontsize=7, padding=2)
        drawn.extend(gaps)
    gap_ax.set_yticks(rows, names)
    gap_ax.invert_yaxis()
    gap_ax.set_xlim(0, max([1, *drawn]) * 1.45)
    gap_ax.set_xlabel("extra guesses in total")
    gap_ax.set_title("gap" if drawn else "gap (no optimum or bound known)")
    if drawn:
        gap_ax.legend(fontsize=8, loc="lower right")
    fig.suptitle(title)
    return fig


def figure_bytes(fig: Figure, fmt: str) -> bytes:
    buffer = io.BytesIO()
    fig.savefig(
        buffer,
        format=fmt,
        dpi=110,
        metadata={"Software": None} if fmt == "png" else {"Creator": None, "Date": None},
    )
    return buffer.getvalue()


def write_figure(
    fig: Figure, path: str | os.PathLike, *, before_write: Callable[[], None] | None = None
) -> None:
    """PNG or SVG by the file name, written atomically; ``-`` writes SVG to standard output.
    ``before_write``: called once the picture is rendered, before anything is written (it
    may raise to write nothing: ``plot`` after a Ctrl-C that came while it rendered)."""
    fmt = plot_format(path)
    data = figure_bytes(fig, fmt)
    if before_write is not None:
        before_write()
    write_atomic(path, data)


def plot_comparison(
    result: Comparison, path: str | os.PathLike, *, before_write: Callable[[], None] | None = None
) -> None:
    """The figure of a :func:`mastermind.app.comparisons.compare` result, into ``path``
    (``before_write``: as :func:`write_figure` takes it)."""
    opt = None if result.optimal is None else result.optimal["total"]
    title = f"{result.rules}: {plural(result.rules.n_codes, 'secret')}"
    figure = guesses_figure(title, comparison_series(result), opt, result.bounds.total)
    write_figure(figure, path, before_write=before_write)
