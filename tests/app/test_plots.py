"""``mastermind plot`` and ``compare --plot``: the figure (bars per strategy, gaps) and its files."""

from __future__ import annotations

import json
import os
import re
from importlib.util import find_spec

import pytest

from mastermind.app import plots
from mastermind.app.cli import main
from mastermind.app.plots import Series, guesses_figure, plot_format, write_figure
from mastermind.core.errors import MastermindError

needs_matplotlib = pytest.mark.skipif(
    find_spec("matplotlib") is None, reason="matplotlib (extra 'plot') is not installed"
)
PNG = b"\x89PNG\r\n\x1a\n"
# p4c6: the optimum and Knuth's minimax as published, and a strategy with one secret at 9
SERIES = [
    Series("optimal", [1, 8, 86, 656, 544, 1]),
    Series("minimax", [1, 6, 62, 533, 694]),
    Series("slow", [1, 4, 25, 108, 305, 602, 196, 49, 6]),
]


@needs_matplotlib
def test_one_bar_group_per_strategy_and_the_gaps():
    assert [s.total for s in SERIES[:2]] == [5625, 5801]
    fig = guesses_figure("p4c6r", SERIES, 5625, 5532)
    hist_ax, gap_ax = fig.axes
    groups = hist_ax.containers
    assert [g.get_label() for g in groups] == ["optimal", "minimax", "slow"]
    for group, s in zip(groups, SERIES):
        assert [bar.get_height() for bar in group] == s.histogram
        # every count is written on its bar, the 1s of a log scale included
        labels = [t.get_text() for t in hist_ax.texts if t.get_text()]
        assert all(str(h) in labels for h in s.histogram)
    assert hist_ax.get_yscale() == "log"
    to_optimum, to_bound = gap_ax.containers
    assert [bar.get_width() for bar in to_optimum] == [0, 176, SERIES[2].total - 5625]
    assert [bar.get_width() for bar in to_bound] == [93, 269, SERIES[2].total - 5532]


@needs_matplotlib
def test_gaps_without_an_optimum():
    fig = guesses_figure("p4c6r", SERIES[1:], None, 5532)
    assert len(fig.axes[0].containers) == 2 and len(fig.axes[1].containers) == 1


@needs_matplotlib
def test_png_and_svg_files(tmp_path):
    fig = guesses_figure("p4c6r", SERIES, 5625, 5532)
    write_figure(fig, tmp_path / "h.png")
    write_figure(fig, tmp_path / "h.svg")
    assert (tmp_path / "h.png").read_bytes()[:8] == PNG
    assert "<svg" in (tmp_path / "h.svg").read_text()[:400]


def test_plot_format():
    assert (plot_format("a.png"), plot_format("b.SVG"), plot_format("-")) == ("png", "svg", "svg")
    with pytest.raises(MastermindError, match=r"\.png or \.svg"):
        plot_format("c.pdf")


def bar_groups(fig) -> dict[str, list[int]]:
    """Strategy -> bar heights of the figure's histogram panel."""
    return {g.get_label(): [int(bar.get_height()) for bar in g] for g in fig.axes[0].containers}


@pytest.fixture
def drawn(monkeypatch):
    """The figures the commands write, kept for a look at their bars."""
    figures = []

    def keep(fig, path, **kwargs):
        figures.append(fig)
        original(fig, path, **kwargs)

    original = plots.write_figure
    monkeypatch.setattr(plots, "write_figure", keep)
    return figures


@needs_matplotlib
def test_plot_command(tmp_path, capsys, drawn):
    out = tmp_path / "p.png"
    assert main(["plot", "-r", "p2c3", "-s", "minimax", "-s", "optimal", "--out", str(out), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["drawn"] == ["minimax", "optimal"] and data["optimal"]["total"] == 21
    assert out.read_bytes()[:8] == PNG
    (minimax,) = [s for s in data["strategies"] if s["strategy"] == "minimax"]
    assert bar_groups(drawn[-1]) == {"minimax": minimax["histogram"], "optimal": data["optimal"]["histogram"]}
    assert main(["plot", "-r", "p2c3", "-s", "entropy", "--out", "-"]) == 0
    assert "<svg" in capsys.readouterr().out[:400]
    assert list(bar_groups(drawn[-1])) == ["entropy"]
    svg = tmp_path / "c.svg"
    assert main(["compare", "-r", "p2c3", "--plot", str(svg), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["plot"] == str(svg) and "<svg" in svg.read_text()[:400]
    # compare --plot: the optimum, then one bar group per strategy of the table
    assert bar_groups(drawn[-1]) == {
        "optimal": data["optimal"]["histogram"],
        **{s["strategy"]: s["histogram"] for s in data["strategies"]},
    }
    assert len(drawn[-1].axes[0].containers) == 1 + len(data["strategies"])
    assert main(["compare", "-r", "p2c3", "--plot", str(svg)]) == 0
    assert "wrote the plot of " in capsys.readouterr().out


@pytest.mark.parametrize(
    "args, message",
    [
        (["plot", "-r", "p2c3", "--out", "x.pdf"], ".png or .svg"),
        (["plot", "-r", "p2c3", "-s", "best", "--out", "x.png"], "--strategy: unknown value 'best'"),
        (["plot", "-r", "p2c3x", "--out", "x.png"], "cannot read rules"),
        (["plot", "-r", "p2c3", "--out", "/nonexistent/dir/x.svg"], "does not exist"),
        (["compare", "-r", "p2c3", "--plot", "-"], "give --plot a .png or .svg file"),
        (["plot", "-r", "p2c3", "--out", "-", "--json"], "--out - and --json both use standard output"),
    ],
)
def test_bad_input_is_one_line(args, message, capsys):
    assert main(args) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_a_name_without_a_picture_format_is_told_only_what_the_command_takes(capsys):
    """compare --plot x.txt was told "(or - for SVG on standard output)", which it refuses."""
    assert main(["compare", "-r", "p2c3", "--plot", "x.txt"]) == 2
    err = capsys.readouterr().err
    assert "name it .png or .svg" in err and "standard output" not in err
    assert main(["plot", "-r", "p2c3", "--out", "x.txt"]) == 2
    assert "(or - for SVG on standard output)" in capsys.readouterr().err


@needs_matplotlib
def test_a_special_file_gets_svg(capsys):
    """plot -o /dev/null was refused ("cannot tell the picture format"), as export is not."""
    assert main(["plot", "-r", "p2c3", "-s", "minimax", "--out", os.devnull]) == 0
    assert f"to {os.devnull}" in capsys.readouterr().out


@pytest.mark.integration
def test_a_home_without_a_writable_config_folder_draws_without_warnings(tmp_path, monkeypatch):
    pytest.importorskip("matplotlib", reason="drawing needs the plot extra")
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k not in ("MPLCONFIGDIR", "XDG_CONFIG_HOME")}
    env["HOME"] = "/proc/no-such-home"  # where no folder can be made, even by root
    env["XDG_CACHE_HOME"] = str(tmp_path / "cache")
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env["PYTHONPATH"] = root
    out = tmp_path / "p.png"
    proc = subprocess.run(
        [sys.executable, "-m", "mastermind", "plot", "-r", "p2c3", "-s", "minimax", "--out", str(out)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    # matplotlib used to print its two-line warning about the folder it could not make
    assert proc.returncode == 0 and proc.stderr == "" and out.stat().st_size > 0, proc.stderr


@needs_matplotlib
def test_plot_of_an_optimum_not_proven_draws_the_best_strategy_found(tmp_path, capsys, drawn, monkeypatch):
    """`plot -s optimal --time-limit` exited 2 ("nothing to plot") when the search was stopped;
    it draws the strategy the search found, said to be unproven, and exit code 0.

    No time limit stops a search between its first strategy and its proof on every machine
    (p4c7: after 1.5 s and 12 s on one machine, both within 5 s on a faster one), so the
    comparison is the real one of p3c3, its optimum handed back as a stopped search hands back
    its best strategy (what a stopped search reports is tested with the search)."""
    import dataclasses

    from mastermind.app import comparisons

    real = comparisons.compare

    def stopped_search(*args, **kwargs):
        result = real(*args, **kwargs)
        found = {**result.optimal, "proven": False, "lower_bound": result.bounds.total}
        return dataclasses.replace(result, optimal=None, best_found=found)

    monkeypatch.setattr(comparisons, "compare", stopped_search)
    out = tmp_path / "p.png"
    args = ["plot", "-r", "p3c3", "-s", "optimal", "--time-limit", "60", "--out", str(out)]
    assert main([*args, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["optimal"] is None and data["drawn"] == ["best found (not proven)"]
    found = data["best_found"]
    assert data["proven"] is False and found["found_by"] and sum(found["histogram"]) == 27
    assert found["total"] == 73 >= data["total_lower_bound"]  # 73: the optimum of p3c3
    assert bar_groups(drawn[-1]) == {"best found (not proven)": found["histogram"]}
    assert main(args) == 0
    assert "the best strategy found drawn in its place" in capsys.readouterr().out


@needs_matplotlib
def test_a_plot_stopped_by_its_time_limit_says_so(tmp_path, capsys, monkeypatch):
    """`plot -s minimax --time-limit` said only "wrote the plot": nothing told the optimum's
    search had been stopped (compare says so). The comparison is p3c3's, marked stopped as
    a time limit would (when a limit stops it depends on the machine)."""
    import dataclasses

    from mastermind.app import comparisons

    real = comparisons.compare
    monkeypatch.setattr(
        comparisons,
        "compare",
        lambda *a, **k: dataclasses.replace(real(*a, **k), optimal=None, stopped="time limit"),
    )
    out = tmp_path / "p.svg"
    assert main(["plot", "-r", "p3c3", "-s", "minimax", "--time-limit", "60", "--out", str(out)]) == 0
    captured = capsys.readouterr()
    assert "wrote the plot of minimax" in captured.out
    said = "stopped (time limit; --time-limit 60 s counts the whole command: "
    assert captured.err.startswith(said)
    assert captured.err.strip().endswith("s so far): the optimum not proven; 1 strategy played every secret")


@needs_matplotlib
def test_plot_with_nothing_found_in_time_says_what_is_proven(tmp_path, capsys):
    """A time limit is an answer: exit 0 with the proven bound (it was exit 2, "nothing to
    plot"). The search of p5c6 finds its first strategy after many seconds: none in 0.3 s."""
    out = tmp_path / "p.png"
    assert main(["plot", "-r", "p5c6", "-s", "optimal", "--time-limit", "0.3", "--out", str(out)]) == 0
    said = capsys.readouterr().out
    assert "nothing written to" in said and "total >= " in said and not out.exists()


@needs_matplotlib
@pytest.mark.parametrize(
    "argv",
    [["plot", "-r", "p3c3", "-o", "{dir}/p.svg"], ["compare", "-r", "p3c3", "--plot", "{dir}/p.png"]],
)
def test_a_picture_is_drawn_within_the_time_limit(tmp_path, monkeypatch, argv):
    """The comparison under a picture gets the limit less the drawing's time (``plot -r p4c7
    --time-limit 10`` took 12.9 s: it drew after the limit, a new user's trial)."""
    from mastermind.app import comparisons

    asked: list[float | None] = []

    def compare(*args, time_limit=None, **kwargs):
        asked.append(time_limit)
        raise MastermindError("compared")

    monkeypatch.setattr(comparisons, "compare", compare)
    argv = [a.format(dir=tmp_path) for a in argv]
    assert main([*argv, "--time-limit", "10"]) == 2
    assert main(argv) == 2
    assert asked == [10 - plots.DRAW_SECONDS, None]


@needs_matplotlib
def test_a_picture_on_standard_output_says_its_drawn_seed_on_stderr(capsys, drawn):
    """`plot --out - -s random > x.svg` drew a seed and said it nowhere (--out FILE says it
    on standard output, which here holds the picture alone): it is said on standard error,
    as export says it, and repeats the picture."""
    assert main(["plot", "-r", "p3c4", "--out", "-", "-s", "random"]) == 0
    captured = capsys.readouterr()
    assert captured.out.lstrip().startswith("<?xml") and captured.out.rstrip().endswith("</svg>")
    wrote = "wrote the plot of random for p3c4r to standard output\n"  # (as optimal and export say it)
    said = re.fullmatch(wrote + r"seed (\d+) drawn: --seed \1 repeats this run\n", captured.err)
    assert said, captured.err
    assert main(["plot", "-r", "p3c4", "--out", "-", "-s", "random", "--seed", said[1]]) == 0
    again = capsys.readouterr()
    assert bar_groups(drawn[-1]) == bar_groups(drawn[-2])  # (the same games played)
    assert again.out.rstrip().endswith("</svg>") and again.err == wrote  # (a seed given is not said)
    assert main(["plot", "-r", "p3c4", "--out", "-", "-s", "minimax"]) == 0
    assert capsys.readouterr().err == wrote.replace("random", "minimax")  # (nothing drawn: no seed to say)


@pytest.mark.integration
def test_standard_output_by_its_name_holds_the_picture_alone(tmp_path):
    """`--out /dev/stdout` is standard output as `-` is: the "wrote" line and the seed were
    printed into the picture."""
    pytest.importorskip("matplotlib", reason="drawing needs the plot extra")
    import subprocess
    import sys

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    proc = subprocess.run(
        [sys.executable, "-m", "mastermind", "plot", "-r", "p3c4", "-s", "random", "--out", "/dev/stdout"],
        env={**os.environ, "PYTHONPATH": root},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.lstrip().startswith("<?xml") and proc.stdout.rstrip().endswith("</svg>")
    # what was written, and the seed, on standard error as for `-` (say_wrote)
    pattern = (
        r"wrote the plot of random for p3c4r to /dev/stdout\nseed (\d+) drawn: --seed \1 repeats this run\n"
    )
    assert re.fullmatch(pattern, proc.stderr), proc.stderr
