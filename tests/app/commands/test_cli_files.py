"""``mastermind verify`` and ``mastermind export`` at the command line."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from mastermind.app.cli import main


def run(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    "name, total, worst, histogram",
    [
        ("p4c6r-knuth.txt", 5801, 5, [1, 6, 62, 533, 694]),
        ("p4c6r-koyama-1.txt", 5625, 6, [1, 8, 86, 656, 544, 1]),
    ],
)
def test_verify_published_trees(capsys, data_dir, name, total, worst, histogram):
    code, out, err = run(capsys, "verify", data_dir / name, "--json")
    data = json.loads(out)
    assert code == 0 and err == ""
    assert data["valid"] is True and data["errors"] == []
    assert (data["total"], data["worst"], data["histogram"]) == (total, worst, histogram)
    assert data["secrets"] == 1296 and data["average"] == round(total / 1296, 6)
    assert data["rules"] == "p4c6r" and data["format"] == "irving"
    assert data["pool"] == "all"  # (both guess codes that can no longer be the secret)
    code, out, err = run(capsys, "verify", data_dir / name, "--format", "irving", "--rules", "p4c6")
    assert code == 0 and err == ""
    assert f"total      {total}\n" in out and f"worst      {worst}\n" in out
    assert "histogram  " + " ".join(map(str, histogram)) in out


@pytest.mark.parametrize("pool", ["all", "consistent"])
def test_verify_says_whether_a_strategy_keeps_to_consistent_guesses(capsys, tmp_path, pool):
    """A hard-mode upper bound (`optimal --pool consistent`) is only as good as the tree's
    keeping to codes still possible; `verify` checked the total and not that."""
    tree = tmp_path / "t.json"
    assert run(capsys, "optimal", "-r", "p3c4", "--pool", pool, "-o", tree, "--no-cache")[0] == 0
    code, out, _ = run(capsys, "verify", tree, "--json")
    assert code == 0 and json.loads(out)["pool"] == pool
    assert f"pool       {pool}  (" in run(capsys, "verify", tree)[1]


def corrupt(data_dir, tmp_path, old, new, count=1):
    text = (data_dir / "p4c6r-knuth.txt").read_text()
    assert old in text
    path = tmp_path / "bad.txt"
    path.write_text(text.replace(old, new, count))
    return path


CORRUPTIONS = {
    "count": ("16(1213", "17(1213", "line 1 column 14 (path 1122 0B3W): count 17, but 16 secrets"),
    "guess": ("1296(1122", "1296(1123", "(path 1123 0B4W): count 1, but 2 secrets"),
    "label": ("\nA = (", "\nQ = (", "line 1 column 78 (path 1122 0B2W): label A is not defined"),
    "bad guess": ("4(1415)", "4(1475)", "line 1 column 37: bad guess: code '1475': colour '7'"),
}


@pytest.mark.parametrize("kind", list(CORRUPTIONS))
def test_verify_rejects_corrupted_files(capsys, data_dir, tmp_path, kind):
    old, new, message = CORRUPTIONS[kind]
    path = corrupt(data_dir, tmp_path, old, new)
    code, out, err = run(capsys, "verify", path)
    assert code == 1 and out == ""
    assert err.count("\n") == 1 and err.startswith(f"error: {path} is not a valid strategy: ")
    assert message in err
    code, out, err = run(capsys, "verify", path, "--json")
    data = json.loads(out)
    assert code == 1 and err == ""
    assert data["valid"] is False and len(data["errors"]) == 1 and message in data["errors"][0]
    assert data["total"] is None


def test_verify_rejects_a_truncated_file(capsys, data_dir, tmp_path):
    path = tmp_path / "cut.txt"
    path.write_text((data_dir / "p4c6r-knuth.txt").read_text()[:1800])
    code, out, err = run(capsys, "verify", path)
    assert code == 1 and err.count("\n") == 1
    assert "line 28 column 16: expected a guess, but the file ends (truncated?)" in err


@pytest.mark.parametrize("cut", [30, 400])
def test_verify_says_a_cut_gzip_file_is_not_a_valid_strategy_as_a_cut_text_file(
    capsys, data_dir, tmp_path, cut
):
    """A cut .json exited 1 (not a valid strategy) and a cut .json.gz exited 2 (a new user's
    trial): both are the same cut tree."""
    import gzip

    path = tmp_path / "cut.json.gz"
    path.write_bytes(gzip.compress((data_dir / "p4c6r-knuth.txt").read_bytes())[:cut])
    code, out, err = run(capsys, "verify", path)
    assert code == 1 and out == "" and err.count("\n") == 1
    assert err.startswith(f"error: {path} is not a valid strategy: a damaged gzip file")
    code, out, err = run(capsys, "verify", path, "--json")
    data = json.loads(out)
    assert code == 1 and data["valid"] is False and "damaged gzip" in data["errors"][0]
    code, out, err = run(capsys, "export", "-s", path, "--out", tmp_path / "x.json")
    assert code == 2 and "damaged gzip" in err
    # bytes that are not text: no strategy either, as the damaged gzip (it exited 2)
    binary = tmp_path / "tree.json"
    binary.write_bytes(b"\x89PNG\r\n" + bytes(range(256)))
    code, out, err = run(capsys, "verify", binary)
    assert code == 1 and err.startswith(f"error: {binary} is not a valid strategy: not UTF-8 text")
    assert run(capsys, "simulate", "-s", binary)[0] == 2  # (bad input to any other command)
    # a dot file or an HTML page holds no strategy to read: as binary bytes, exit 1 (it exited 2)
    for fmt, said in (("dot", "a Graphviz dot file"), ("html", "an HTML page")):
        written = tmp_path / f"tree.{fmt}"
        assert run(capsys, "export", "-r", "p2c3", "--out", written)[0] == 0
        code, out, err = run(capsys, "verify", written)
        assert code == 1 and err == f"error: {written} is not a valid strategy: {said}: " + (
            "strategies are written in that format, read from JSON or Irving text\n"
        )
        data = json.loads(run(capsys, "verify", written, "--json")[1])
        assert (data["valid"], data["format"]) == (False, fmt) and said in data["errors"][0]
        assert run(capsys, "simulate", "-s", written)[0] == 2


@pytest.mark.integration
def test_verify_in_a_subprocess_has_no_traceback(data_dir, tmp_path):
    path = tmp_path / "cut.txt"
    path.write_text((data_dir / "p4c6r-knuth.txt").read_text()[:100])
    result = subprocess.run(
        [sys.executable, "-m", "mastermind.app.cli", "verify", str(path)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert "the file ends inside the node of 1122 (truncated?)" in result.stderr


def test_verify_usage_errors_exit_2(capsys, data_dir, tmp_path):
    code, out, err = run(capsys, "verify", tmp_path / "missing.txt")
    assert code == 2 and err.startswith("error: file not found") and err.count("\n") == 1
    code, out, err = run(capsys, "verify", data_dir / "p4c6r-knuth.txt", "--format", "xml")
    assert code == 2 and "--format: unknown value 'xml'; use one of json, irving" in err
    code, out, err = run(capsys, "verify", data_dir / "p4c6r-knuth.txt", "--rules", "p4c6", "--rules", "p4c7")
    assert code == 2 and "--rules: given more than once" in err
    code, out, err = run(capsys, "verify", data_dir / "p4c6r-knuth.txt", "--memory-limit", "-1")
    assert code == 2 and "--memory-limit" in err


def test_verify_wrong_rules_for_an_irving_file(capsys, data_dir):
    code, out, err = run(capsys, "verify", data_dir / "p4c6r-knuth.txt", "--rules", "p4c7")
    assert code == 1 and "the root says 1296 secrets, but p4c7r has 2401 codes" in err


def test_export_then_verify_each_format(capsys, tmp_path):
    for fmt, name in (("json", "t.json"), ("irving", "t.txt"), ("dot", "t.dot")):
        path = tmp_path / name
        code, out, err = run(
            capsys, "export", "--strategy", "minimax", "--rules", "p3c4", "--out", path, "--json"
        )
        assert code == 0, err
        summary = json.loads(out)
        assert summary["format"] == fmt and summary["strategy"] == "minimax"
        assert summary["rules"] == "p3c4r" and summary["secrets"] == 64
        assert not list(tmp_path.glob(".*.tmp"))  # written atomically, nothing left over
        if fmt == "dot":
            assert path.read_text().startswith('digraph "p3c4r minimax" {')
            continue
        args = ["verify", path, "--json"] + (["--rules", "p3c4"] if fmt == "irving" else [])
        code, out, err = run(capsys, *args)
        data = json.loads(out)
        assert code == 0 and data["valid"] and data["format"] == fmt
        assert (data["total"], data["worst"], data["histogram"]) == (
            summary["total"],
            summary["worst"],
            summary["histogram"],
        )


def test_export_to_stdout_and_explicit_format(capsys):
    code, out, err = run(capsys, "export", "-s", "simple", "-r", "p2c3", "-f", "irving")
    assert code == 0 and out.startswith("9(11: ")
    said = "wrote the irving tree of simple for p2c3r to standard output (total 24, average 2.6667, worst 4)"
    assert err == said + "\n"
    code, out, err = run(capsys, "export", "-s", "simple", "-r", "p2c3")
    assert code == 0 and json.loads(out)["stats"]["secrets"] == 9


def test_json_file_with_other_rules_than_asked(capsys, tmp_path):
    path = tmp_path / "t.json"
    assert run(capsys, "export", "-s", "simple", "-r", "p2c3", "-o", path)[0] == 0
    code, out, err = run(capsys, "verify", path)  # rules from the header
    assert code == 0 and "p2c3r" in out
    code, out, err = run(capsys, "verify", path, "--rules", "p2c4")
    assert code == 1 and "strategy for p2c3r, not p2c4r" in err


def test_a_file_for_another_game_exits_1_whatever_its_format(capsys, tmp_path, data_dir):
    """An Irving file for another game exited 1, a JSON file for another game 2: either is a
    file that is not a valid strategy of the game asked."""
    irving = tmp_path / "p3c3.txt"
    assert run(capsys, "export", "-s", "simple", "-r", "p3c3", "-o", irving)[0] == 0
    as_json = tmp_path / "p3c3.json"
    assert run(capsys, "export", "-s", "simple", "-r", "p3c3", "-o", as_json)[0] == 0
    assert run(capsys, "verify", irving)[0] == 0  # (read for the game its root tells)
    for argv in (
        [irving, "-r", "p4c6"],
        [as_json, "-r", "p4c6"],
        [data_dir / "p4c6r-knuth.txt", "-r", "p3c3"],
    ):
        code, out, err = run(capsys, "verify", *argv)
        assert code == 1 and err.startswith("error: ") and "is not a valid strategy" in err, argv
        code, out, _ = run(capsys, "verify", *argv, "--json")
        assert code == 1 and json.loads(out)["valid"] is False


def test_json_header_stats_disagreeing_is_invalid(capsys, tmp_path):
    path = tmp_path / "t.json"
    assert run(capsys, "export", "-s", "simple", "-r", "p2c3", "-o", path)[0] == 0
    data = json.loads(path.read_text())
    data["stats"]["worst"] += 1
    path.write_text(json.dumps(data))
    code, out, err = run(capsys, "verify", path, "--json")
    report = json.loads(out)
    assert code == 1 and not report["valid"] and "header: stats say worst" in report["errors"][0]


def test_export_usage_errors(capsys, tmp_path):
    code, out, err = run(capsys, "export", "--json")
    assert code == 2 and "give --out" in err
    code, out, err = run(capsys, "export", "-s", "nope", "-r", "p2c3")
    assert code == 2 and "nope" in err and err.count("\n") == 1
    code, out, err = run(capsys, "export", "-r", "p2c3", "-f", "xml")
    assert code == 2 and "--format: unknown value" in err
    code, out, err = run(capsys, "export", "-r", "p2c3", "-o", tmp_path / "no" / "t.json")
    assert code == 2 and "does not exist" in err


def test_verify_reads_standard_input(capsys, monkeypatch, data_dir):
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO((data_dir / "p4c6r-koyama-1.txt").read_text()))
    code, out, err = run(capsys, "verify", "-", "--json")
    data = json.loads(out)
    assert code == 0 and data["valid"] and data["total"] == 5625 and data["format"] == "irving"


@pytest.fixture
def exported(capsys, tmp_path):
    path = tmp_path / "p3c3.json"
    assert run(capsys, "export", "-r", "p3c3", "-s", "minimax", "-o", path)[0] == 0
    return path


@pytest.mark.parametrize(
    "field, value, message",
    [
        ("average", 9.5, "stats say average 9.5, the tree gives"),
        ("average", "2.9", "stats say average '2.9'"),
        ("average", True, "stats say average True"),
        ("total", 74.0001, "stats say total 74.0001"),
        ("worst_secrets", ["111"], "stats say worst_secrets ['111']"),
        ("colour", "red", "unknown field 'colour'"),
    ],
)
def test_verify_checks_every_recorded_statistic(capsys, exported, field, value, message):
    data = json.loads(exported.read_text())
    data["stats"][field] = value
    exported.write_text(json.dumps(data))
    code, out, err = run(capsys, "verify", exported)
    assert code == 1 and err.count("\n") == 1 and message in err


@pytest.mark.parametrize("average", [2.7407, 2.74074, 2.740741, 74 / 27])
def test_verify_accepts_an_average_rounded_to_the_decimals_given(capsys, exported, average):
    """`"average": 2.7407`, the tool's own 4-decimal display, failed: "stats say average
    2.7407, the tree gives 2.740741"."""
    data = json.loads(exported.read_text())
    assert (data["stats"]["total"], data["stats"]["secrets"]) == (74, 27)
    data["stats"]["average"] = average
    exported.write_text(json.dumps(data))
    code, out, err = run(capsys, "verify", exported)
    assert code == 0 and err == "", err


@pytest.mark.parametrize(
    "average, note",
    [(2.7408, ""), (2.7406, ""), (2.74075, ""), (2.7, " (to 4 decimals at least: 2.7407)"), (3, " (to 4")],
)
def test_verify_rejects_an_average_wrong_at_its_decimals_or_too_rough(capsys, exported, average, note):
    # 2.7 and 3 are 74/27 rounded to their own decimals, but fit other totals too (72 or 73 guesses)
    data = json.loads(exported.read_text())
    data["stats"]["average"] = average
    exported.write_text(json.dumps(data))
    code, out, err = run(capsys, "verify", exported)
    said = f"stats say average {average}, the tree gives 2.740741{note}"
    assert code == 1 and err.count("\n") == 1 and said in err, err


def test_verify_accepts_the_written_average_and_checks_worst_secrets(capsys, exported):
    data = json.loads(exported.read_text())
    assert "average" in data["stats"] and run(capsys, "verify", exported)[0] == 0
    data["stats"]["worst_secrets"] = []  # wrong: some secrets need the worst case
    exported.write_text(json.dumps(data))
    code, _, err = run(capsys, "verify", exported)
    assert code == 1 and "worst_secrets []" in err


def test_a_strategy_file_plays_wherever_a_strategy_does(capsys, tmp_path, data_dir):
    """`-s FILE` worked in export only, and there only with -r for a file of another game
    than p4c6 ("the file is a strategy for p3c3r, not p4c6r")."""
    path = tmp_path / "m.json"
    assert run(capsys, "export", "-s", "minimax", "-r", "p3c3", "-o", path)[0] == 0
    code, out, _ = run(capsys, "export", "-s", path, "--format", "irving", "--out", "-")
    assert code == 0 and out.startswith("27(")  # the file's game: 27 secrets
    code, out, _ = run(capsys, "simulate", "-s", path, "-n", "50", "--json")
    data = json.loads(out)
    assert code == 0 and data["rules"] == "p3c3r" and sum(data["histogram"]) == 50
    assert data["worst"] <= 4  # the minimax tree's worst case
    code, out, _ = run(capsys, "solve", "-s", path, "123", "--json")
    assert code == 0 and json.loads(out)["turns"][-1]["guess"] == "123"
    knuth = data_dir / "p4c6r-knuth.txt"  # an Irving file: for the game given, p4c6 by default
    code, out, _ = run(capsys, "solve", "-s", knuth, "3632")
    assert code == 0 and out.splitlines()[0].startswith("1122 ")
    code, _, err = run(capsys, "simulate", "-s", path, "--pool", "consistent")
    assert code == 2 and "--pool consistent" in err and err.count("\n") == 1
    code, _, err = run(capsys, "simulate", "-s", path, "-r", "p4c6")
    assert code == 2 and "strategy for p3c3r, not p4c6r" in err


def test_a_drawn_seed_is_said_and_replays(capsys, tmp_path):
    """A random strategy's seed, drawn when --seed is not given, was never shown: the game or
    tree could not be had again."""
    path = tmp_path / "r.json"
    code, out, _ = run(capsys, "export", "-s", "random", "-r", "p3c4", "-o", path, "--json")
    first = json.loads(out)
    again = tmp_path / "again.json"
    code, out, _ = run(capsys, "export", "-s", "random", "-r", "p3c4", "-o", again, "--seed", first["seed"])
    assert code == 0 and again.read_text() == path.read_text()
    code, out, _ = run(capsys, "solve", "-s", "random", "-r", "p3c4", "123")
    seed = int(out.splitlines()[-1].split("--seed ")[1].split()[0])
    code, replay, _ = run(capsys, "solve", "-s", "random", "-r", "p3c4", "123", "--seed", seed)
    assert replay.splitlines()[:-1] == out.splitlines()[:-1]
    code, out, _ = run(capsys, "solve", "-s", "minimax", "-r", "p3c4", "123")
    assert "seed" not in out  # nothing drawn for a strategy without chance


def test_the_strategy_heuristics_measures_is_the_one_export_writes_and_solve_plays(capsys, tmp_path):
    """`heuristics -s minimax --pool consistent --tie-break sorted` measured a strategy that
    export, solve, assist and play could not play or write."""
    options = ["-r", "p3c4", "-s", "minimax", "--pool", "consistent", "--tie-break", "sorted"]
    code, out, _ = run(capsys, "heuristics", *options, "--json")
    (row,) = json.loads(out)["strategies"]
    path = tmp_path / "m.json"
    code, out, _ = run(capsys, "export", *options, "--out", path, "--json")
    assert code == 0 and json.loads(out)["total"] == row["total"]
    plain = json.loads(run(capsys, "heuristics", "-r", "p3c4", "-s", "minimax", "--json")[1])["strategies"][0]
    assert plain["histogram"] != row["histogram"] or plain["total"] != row["total"]  # the options matter here
    for secret in ("123", "432", "214"):
        code, out, _ = run(capsys, "solve", secret, *options, "--json")
        by_tree = json.loads(run(capsys, "solve", secret, "-s", str(path), "--json")[1])
        assert [p["guess"] for p in json.loads(out)["turns"]] == [p["guess"] for p in by_tree["turns"]]


def test_gzipped_trees_are_read_wherever_a_tree_file_is(capsys, tmp_path):
    """The trees results/ publishes are .json.gz: verify, export -s FILE (to every format,
    the HTML explorer included) read them as they read .json (issue 28)."""
    import gzip
    from pathlib import Path

    published = Path(__file__).resolve().parents[3] / "results" / "trees" / "p4c6.json.gz"
    code, out, err = run(capsys, "verify", published, "--json")
    assert code == 0 and json.loads(out)["total"] == 5625
    plain = tmp_path / "t.json"
    plain.write_bytes(gzip.decompress(published.read_bytes()))
    for fmt, suffix in (("irving", "txt"), ("html", "html"), ("json", "json")):
        code, out, err = run(
            capsys, "export", "-s", published, "--format", fmt, "--out", tmp_path / f"g.{suffix}"
        )
        assert code == 0, err
        code, _, err = run(capsys, "export", "-s", plain, "--format", fmt, "--out", tmp_path / f"p.{suffix}")
        assert code == 0, err
        assert (tmp_path / f"g.{suffix}").read_bytes() == (tmp_path / f"p.{suffix}").read_bytes()
    bomb = tmp_path / "bomb.json.gz"  # a few hundred kB that would grow past the limit in memory
    bomb.write_bytes(gzip.compress(b" " * (1 << 20)) * 300)  # (300 members of 1 MiB: 4 s less)
    code, out, err = run(capsys, "verify", bomb)
    assert code == 2 and "once uncompressed" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(("jobs", "threads"), [("1", 1), ("2", 2), ("0", -1)])
def test_export_of_the_optimum_searches_with_the_jobs_given(capsys, tmp_path, monkeypatch, jobs, threads):
    """``export -s optimal --jobs N`` searches as ``optimal --jobs N`` does (0: every core),
    and the tree is the same optimum whatever the number of threads."""
    import mastermind.engines.exact as exact

    seen = []
    real_solve = exact.solve

    def solve(*args, **kwargs):
        seen.append(kwargs["execution"].jobs)
        return real_solve(*args, **kwargs)

    monkeypatch.setattr(exact, "solve", solve)
    out = tmp_path / "e.json"
    code, text, err = run(capsys, "export", "-r", "p3c4", "-s", "optimal", "-j", jobs, "-o", out, "--json")
    assert code == 0, err
    assert seen == [threads] and json.loads(text)["total"] == 206 and json.loads(text)["proven"] is True


def test_export_of_the_optimum_with_a_time_limit_searches_as_optimal_does(capsys, tmp_path, monkeypatch):
    """Told the time limit, the search builds strategies alongside and a stop writes the best
    one found, as ``optimal --time-limit --out`` does (p4c7 with 3 s: optimal wrote an 11343
    tree, export nothing)."""
    import mastermind.engines.exact as exact

    told = []  # (the time limit the search was given, the time its token had left)
    real_solve = exact.solve

    def solve(*args, **kwargs):
        limits = kwargs.get("limits")
        told.append((None if limits is None else limits.time_limit, kwargs["cancel"].remaining()))
        return real_solve(*args, **kwargs)

    monkeypatch.setattr(exact, "solve", solve)
    out = tmp_path / "e.json"
    argv = ["export", "-r", "p3c3", "-s", "optimal", "--out", str(out)]
    code, _, _ = run(capsys, *argv, "--time-limit", "600")
    assert code == 0 and out.is_file()
    # the limit is the deadline of the search's token, counted from the command's start,
    # and nowhere else
    assert told and told[0][0] is None and 0 < told[0][1] <= 600
    code, _, _ = run(capsys, *argv)
    assert code == 0 and told[1] == (None, None)


def test_a_tree_written_to_a_gz_name_is_gzipped_in_the_format_its_name_says(capsys, tmp_path):
    """-o tree.json.gz wrote plain JSON under a .gz name, and -o tree.txt.gz JSON too."""
    import gzip

    for argv, name, start in (
        (["optimal", "-r", "p3c4"], "o.json.gz", "{"),
        (["export", "-r", "p3c4", "-s", "optimal"], "e.json.gz", "{"),
        (["export", "-r", "p3c4", "-s", "optimal"], "e.txt.gz", "64("),
        (["export", "-r", "p3c4", "-s", "minimax", "-f", "dot"], "d.gv.gz", "digraph"),
    ):
        path = tmp_path / name
        code, _, _ = run(capsys, *argv, "--out", str(path))
        assert code == 0
        assert gzip.decompress(path.read_bytes()).decode().startswith(start), name
        if start != "digraph":
            code, out, _ = run(capsys, "verify", str(path), "-r", "p3c4")
            assert code == 0 and out.startswith("valid"), out


def test_export_to_standard_output_says_a_drawn_seed_apart(capsys):
    """With --out it said how to repeat the run; to standard output it said nothing."""
    code, out, err = run(capsys, "export", "-r", "p3c3", "--tie-break", "random")
    assert code == 0 and json.loads(out)["rules"] == "p3c3r"
    seed = int(err.split("seed ")[1].split()[0])
    assert err.startswith("wrote the json tree of minimax for p3c3r to standard output (total ")
    assert err.endswith(f"; seed {seed} drawn: --seed {seed} repeats this run)\n") and err.count("\n") == 1
    code, again, err = run(capsys, "export", "-r", "p3c3", "--tie-break", "random", "--seed", str(seed))
    assert code == 0 and again == out and "seed" not in err and err.count("\n") == 1


def test_export_of_an_optimum_not_proven_gives_its_numbers_as_best_found(capsys, tmp_path, monkeypatch):
    """Stopped, export wrote the best strategy found and its --json gave that strategy's total
    as "total", without "proven" (a new user's trial): a script read 11361 as p4c7's optimum."""
    import dataclasses

    import mastermind.engines.exact as exact
    from mastermind.engines.result import Status

    real_solve = exact.solve

    def stopped_solve(*args, **kwargs):  # the answer of a search that stopped with a strategy
        result = real_solve(*args, **kwargs)
        return dataclasses.replace(result, status=Status.FEASIBLE, stopped="time limit", found_by="entropy")

    monkeypatch.setattr(exact, "solve", stopped_solve)
    out = tmp_path / "e.json"
    code, text, _ = run(capsys, "export", "-r", "p3c3", "-s", "optimal", "--out", str(out), "--json")
    data = json.loads(text)
    assert code == 0 and out.is_file()
    assert data["proven"] is False and data["stopped"] == "time limit"
    assert data["total"] is None and data["average"] is None and data["worst"] is None
    assert data["best_found"]["total"] == 73 and data["best_found"]["found_by"] == "entropy"
    code, text, _ = run(capsys, "export", "-r", "p3c3", "-s", "entropy", "--out", str(out), "--json")
    assert json.loads(text)["proven"] is True and json.loads(text)["total"] == 73  # its whole tree


@pytest.mark.parametrize(
    "argv, expect",
    [
        (["export", "-s", "-", "-o", "-"], '"total": 5625'),
        (["simulate", "-s", "-", "--secrets", "50"], "histogram"),
        (["heuristics", "-s", "-"], "5625"),
        (["compare", "-s", "-", "--json"], "5625"),
    ],
)
def test_a_strategy_option_reads_standard_input_as_verify_does(capsys, monkeypatch, data_dir, argv, expect):
    """``verify -`` read standard input but ``-s -`` took ``-`` for a strategy name (a new
    user's trial); the file is read once, for its game and then for play."""
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO((data_dir / "p4c6r-koyama-1.txt").read_text()))
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    assert expect in out
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    code, out, err = run(capsys, *argv)
    assert code == 2 and err.count("\n") == 1 and "standard input: " in err


@pytest.mark.parametrize(
    "argv",
    [
        ["verify", "-"],
        ["simulate", "-s", "-", "--secrets", "5", "--seed", "1"],
        ["heuristics", "-s", "-"],
        ["compare", "-s", "-", "-s", "simple", "--time-limit", "3"],
    ],
)
def test_text_reports_name_standard_input_in_words(capsys, monkeypatch, data_dir, argv):
    """``-`` is "standard input" in every message and report, as export and the errors say
    (verify, simulate and heuristics printed "-": a new user's trial)."""
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO((data_dir / "p4c6r-koyama-1.txt").read_text()))
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    assert "standard input" in out and " -:" not in out and "│ - " not in out


@pytest.mark.parametrize("strategy, draws", [("minimax", False), ("random", True)])
def test_assist_gives_a_seed_only_when_its_strategy_draws(capsys, monkeypatch, strategy, draws):
    """As ``solve`` says it: null when nothing is drawn (assist gave an unused seed)."""
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO("\n"))
    code, out, err = run(capsys, "assist", "-r", "p2c2", "-s", strategy, "--json")
    assert code == 0, err
    seed = json.loads(out)["seed"]
    assert isinstance(seed, int) if draws else seed is None


@pytest.mark.parametrize("command", ["assist", "play"])
def test_a_session_refuses_its_strategy_from_standard_input(capsys, monkeypatch, data_dir, command):
    """A session reads its moves from standard input: a strategy read from there left it none."""
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO((data_dir / "p4c6r-koyama-1.txt").read_text()))
    code, out, err = run(capsys, command, "-s", "-")
    assert code == 2 and out == "" and err.count("\n") == 1 and "standard input holds" in err


@pytest.mark.parametrize(
    "argv",
    [
        ["heuristics", "-r", "p3c4", "-s", "minimax", "-s", "entropy", "--no-cache", "--json", "--seed", "1"],
        ["partition", "-r", "p3c4", "112", "--json"],
    ],
)
def test_a_memory_limit_below_the_score_table_plays_without_it(capsys, argv):
    """--memory-limit below the score table (p3c4: 4 KiB) is no refusal in the commands that
    can compute answers as needed (a new user took it for ignored); the numbers are the same."""
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    code2, out2, err2 = run(capsys, *argv, "--memory-limit", "0.000002")
    assert code2 == 0, err2
    drop = ("seconds", "cached")
    a, b = json.loads(out), json.loads(out2)
    assert {k: v for k, v in a.items() if k not in drop} == {k: v for k, v in b.items() if k not in drop}
    assert "computed as needed" in run(capsys, argv[0], "--help")[1]


def test_a_missing_branch_of_one_secret_is_said_in_the_singular(capsys, tmp_path):
    """ "which 1 secret give" (a new user's trial)."""
    path = tmp_path / "t.json"
    assert run(capsys, "export", "-r", "p2c3", "-s", "minimax", "-o", path)[0] == 0
    doc = json.loads(path.read_text())
    doc.pop("stats")
    first = doc["tree"]["children"]
    node = next(
        c for c in first.values() if any(g.get("candidates") == 1 for g in c.get("children", {}).values())
    )
    answer = next(a for a, g in node["children"].items() if g.get("candidates") == 1)
    del node["children"][answer]
    path.write_text(json.dumps(doc))
    code, out, err = run(capsys, "verify", path)
    assert code == 1 and f"no branch for answer {answer} to {node['guess']}, which 1 secret gives" in err


def test_a_damaged_file_on_standard_input_is_named_in_words(capsys, monkeypatch):
    """``read_text``'s own errors said "cannot read -: a damaged gzip file"."""
    import io

    class Bytes(io.StringIO):
        buffer = io.BytesIO(b"\x1f\x8bnot gzip at all")

    monkeypatch.setattr(sys, "stdin", Bytes())
    code, out, err = run(capsys, "verify", "-")
    assert code != 0 and err.count("\n") == 1
    assert "standard input" in err and "a damaged gzip file" in err and " -:" not in err


def test_an_export_to_standard_output_stopped_before_its_tree_leaves_it_empty(capsys, monkeypatch):
    """`export -o -` holds the tree alone: stopped before any tree (the start-up alone
    outlasts the limit), standard output stays empty and the reason goes to standard error.
    (The heuristic beside the search is kept from finishing: its tree would be the best found.)"""
    from mastermind.engines.optimum import Fallback

    monkeypatch.setattr(Fallback, "_play", lambda self: None)
    code, out, err = run(capsys, "export", "-s", "optimal", "-r", "p4c7", "-o", "-", "--time-limit", "0.001")
    assert code == 0 and out == ""
    assert "nothing written to standard output: stopped (time limit; " in err
    assert "--time-limit 0.001 s counts the whole command" in err


# ---- defects of a new user's trial ----------------------------------------------------------
def test_verify_refuses_a_star_on_a_guess_still_possible(capsys, tmp_path):
    """`3(241)` made `3(241*)` in a valid file, 241 still a possible secret, was valid (exit
    0): a * says the guess is no remaining secret. A missing * is no error (the published
    trees leave most out)."""
    import re

    tree = tmp_path / "t.txt"
    assert run(capsys, "export", "-r", "p3c4", "-s", "minimax", "-o", tree)[0] == 0
    text = tree.read_text()
    assert "*" in text
    unmarked = [m for m in re.finditer(r"\((\d{3})(?!\d|\*)", text)]
    assert unmarked
    for m in (unmarked[0], unmarked[-1]):  # (the root, and a leaf guess of a label's node)
        at = m.end(1)
        bad = tmp_path / "bad.txt"
        bad.write_text(text[:at] + "*" + text[at:])
        code, out, err = run(capsys, "verify", bad)
        line, column = text.count("\n", 0, at) + 1, at - text.rfind("\n", 0, at)
        assert code == 1 and out == "" and err.count("\n") == 1
        assert err.startswith(f"error: {bad} is not a valid strategy: line {line} column {column} (")
        assert f"guess {m.group(1)} is marked *, no remaining secret, but it could still be the secret" in err
        code, out, err = run(capsys, "verify", bad, "--json")
        data = json.loads(out)
        assert code == 1 and err == "" and data["valid"] is False and "is marked *" in data["errors"][0]
    unmarked_file = tmp_path / "unmarked.txt"
    unmarked_file.write_text(text.replace("*", ""))
    total = json.loads(run(capsys, "verify", tree, "--json")[1])["total"]
    code, out, _ = run(capsys, "verify", unmarked_file, "--json")
    assert code == 0 and json.loads(out)["total"] == total


@pytest.fixture
def no_work(monkeypatch):
    """Any strategy's tree or exact search made fails the test: a refusal comes first."""
    import mastermind.app.players as players
    import mastermind.engines.exact as exact

    def work(*args, **kwargs):
        raise AssertionError("the work was done before the refusal")

    monkeypatch.setattr(players, "tree_of", work)
    monkeypatch.setattr(exact, "solve", work)


@pytest.mark.timeout(60)  # (a pipe opened as a plain file waits for a reader for ever)
@pytest.mark.parametrize(
    "argv",
    [
        ["export", "-r", "p2c3"],
        ["export", "-r", "p2c3", "-s", "optimal", "--json"],
        ["optimal", "-r", "p2c3", "--no-cache"],
    ],
)
def test_a_named_pipe_that_nothing_reads_is_refused_before_any_work(capsys, tmp_path, no_work, argv):
    """`export --out ff` (mkfifo ff) computed the tree, reported it, then could not write it."""
    fifo = tmp_path / "ff"
    os.mkfifo(fifo)
    code, out, err = run(capsys, *argv, "--out", fifo)
    assert code == 2 and out == ""
    assert err == f"error: --out: cannot write {fifo}: a named pipe that nothing reads\n"


@pytest.mark.timeout(60)
def test_a_named_pipe_read_gets_the_tree(capsys, tmp_path):
    fifo = tmp_path / "ff"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        code, out, err = run(capsys, "export", "-r", "p2c3", "--out", fifo, "--json")
        assert code == 0 and json.loads(out)["out"] == str(fifo)
        data = b""
        while chunk := os.read(reader, 1 << 16):
            data += chunk
    finally:
        os.close(reader)
    assert json.loads(data)["stats"]["total"] == 24


@pytest.mark.parametrize("name", ["t.gz", "T.GZ", "t.xyz", "t.xyz.gz", "t.json.bz2"])
def test_an_out_name_that_gives_no_format_is_refused_alike(capsys, tmp_path, no_work, name):
    """`export --out t.gz` wrote gzipped JSON where t.xyz, t.xyz.gz and t.json.bz2 were
    refused as naming no format: .gz alone names none either (optimal, without --format, too)."""
    path = tmp_path / name
    code, out, err = run(capsys, "export", "-r", "p2c3", "--out", path)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith(f"error: --out: {path}: ") and "names no tree format" in err
    assert err.rstrip().endswith(": give --format")
    code, out, err = run(capsys, "optimal", "-r", "p2c3", "--no-cache", "--out", path)
    assert code == 2 and "names no tree format" in err and err.count("\n") == 1
    assert not path.exists()


def test_a_gz_name_with_a_format_given_is_written_gzipped(capsys, tmp_path):
    import gzip

    path = tmp_path / "t.gz"
    code, _, err = run(capsys, "export", "-r", "p2c3", "--out", path, "--format", "irving")
    assert code == 0, err
    assert gzip.decompress(path.read_bytes()).decode().startswith("9(")


@pytest.mark.parametrize("name", ["tree.json", "tree.dot.gz", "tree.HTML"])
def test_a_name_that_names_another_format_than_asked_is_refused(capsys, tmp_path, name):
    """`export --format irving --out x.json` wrote Irving text into a .json file unsaid."""
    path = tmp_path / name
    code, out, err = run(capsys, "export", "-r", "p2c3", "--format", "irving", "--out", path)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1, err
    assert err.startswith(f"error: --out: {path} names the ") and "--format asks for irving" in err
    assert not path.exists()
    for agrees in ("tree.txt", "tree.txt.gz", "tree.text", "tree"):  # (a name of no format: as asked)
        code, _, err = run(capsys, "export", "-r", "p2c3", "--format", "irving", "--out", tmp_path / agrees)
        assert code == 0, err


def test_export_json_says_the_pool_and_tie_break(capsys, tmp_path, data_dir):
    """solve, heuristics and plot report pool and tie_break; export gave neither, so that a
    hard-mode tree could not be told from another."""
    out = tmp_path / "t.json"
    for extra, pool, tie_break in (
        ([], "all", "default"),
        (["--pool", "consistent"], "consistent", "default"),
        (["--tie-break", "sorted"], "all", "sorted"),
    ):
        code, text, err = run(capsys, "export", "-r", "p3c3", "-s", "minimax", "-o", out, "--json", *extra)
        data = json.loads(text)
        assert code == 0, err
        assert (data["pool"], data["tie_break"]) == (pool, tie_break)
    code, text, _ = run(capsys, "export", "-s", data_dir / "p4c6r-koyama-1.txt", "-o", out, "--json")
    data = json.loads(text)  # (a file's tree is written as it is, as simulate says)
    assert code == 0 and (data["pool"], data["tie_break"]) == (None, None) and data["secrets"] == 1296


def test_a_stopped_export_json_gives_the_games_codes(capsys, tmp_path, monkeypatch):
    """Stopped before its tree, export --json gave nothing of the game's size; it gives its
    ``codes``, as optimal --json does, and ``secrets`` (those its numbers are over) null. The
    histogram is [] as optimal --json gives it without a strategy."""
    import time

    import mastermind.app.players as players

    def stopped_at_the_limit(name, table, **options):  # (whatever the machine's speed)
        token = options["cancel"]
        while not token.cancelled:
            time.sleep(0.01)
        token.check()

    monkeypatch.setattr(players, "tree_of", stopped_at_the_limit)
    out = tmp_path / "t.json"
    code, text, _ = run(capsys, "export", "-r", "p3c4", "-o", out, "--json", "--time-limit", "0.05")
    data = json.loads(text)
    assert code == 0 and data["stopped"] == "time limit" and not out.exists()
    assert data["codes"] == 64 and data["secrets"] is None
    assert data["histogram"] == [] and data["total"] is None
    assert (data["pool"], data["tie_break"]) == ("all", "default")
    monkeypatch.undo()
    code, text, _ = run(capsys, "export", "-r", "p3c4", "-o", out, "--json")  # (a tree: its numbers)
    assert json.loads(text)["secrets"] == 64 == json.loads(text)["codes"]


def test_a_command_that_writes_nothing_to_a_fifo_lets_its_reader_go(tmp_path):
    """A command refused after its check of --out (here its game is out of reach) held the
    pipe for the life of the process: a library caller's reader never saw the end."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        assert main(["export", "-r", "p9c9", "--out", str(fifo)]) == 2
        assert os.read(reader, 100) == b""
    finally:
        os.close(reader)


def test_export_and_optimal_stopped_early_write_the_same_best_strategy(capsys, tmp_path, monkeypatch):
    """`export -r p4c8 -s optimal --time-limit 6 --out s.json` wrote nothing ("before the
    tree ... was complete", best_found null) where `optimal` with the same options wrote the
    best strategy found (the heuristic played beside its search): both now search by one
    call. The search here stops at once, after the heuristic beside it (if any) has played
    every secret, as a long search stopped by its time limit does: no timing."""
    import mastermind.engines.exact as exact
    from mastermind.core.cancel import CancelToken

    real_solve = exact.solve

    def stopped_at_once(table, problem, **kwargs):
        fallback = getattr(kwargs.get("progress"), "_fallback", None)  # (see Fallback.progress)
        if fallback is not None:
            fallback.wait(600)
        token = CancelToken()
        token.cancel("time limit")
        return real_solve(table, problem, **{**kwargs, "cancel": token})

    monkeypatch.setattr(exact, "solve", stopped_at_once)
    found = {}
    for command in ("optimal", "export"):
        path = tmp_path / f"{command}.json"
        argv = [command, "-r", "p4c6", "--time-limit", "3600", "--out", path, "--json"]
        code, out, err = run(capsys, *argv, *(["-s", "optimal"] if command == "export" else []))
        data = json.loads(out)
        assert code == 0, err
        assert data["proven"] is False and data["stopped"] == "time limit"
        assert data["out"] == str(path) and path.is_file()
        found[command] = data["best_found"]
        tree = json.loads(path.read_text())
        assert tree["stats"]["total"] == data["best_found"]["total"]
    assert found["export"] == found["optimal"]
    assert found["optimal"]["found_by"] == "entropy" and found["optimal"]["secrets"] == 1296


@pytest.mark.parametrize(
    "argv",
    [
        ["optimal", "-r", "p2c3", "--no-cache"],
        ["export", "-r", "p2c3", "-s", "optimal"],
        ["export", "-r", "p2c3", "-s", "minimax", "-f", "dot"],
        ["plot", "-r", "p2c3", "-s", "minimax"],
    ],
)
def test_every_command_says_what_it_wrote_to_standard_output_as_to_a_file(capsys, tmp_path, argv):
    """`export --out -` said nothing on standard error where `optimal --out -` said it wrote the
    tree: every command with --out says the same line for standard output (on standard error,
    as standard output holds what was written alone) as for a file (one helper, say_wrote)."""
    name = {"plot": "p.svg", "export": "t.dot" if "dot" in argv else "t.json"}.get(argv[0], "t.json")
    path = tmp_path / name
    code, out, err = run(capsys, *argv, "--out", path)
    assert code == 0, err
    said = [line for line in (out + err).splitlines() if line.startswith("wrote ")]
    assert len(said) == 1 and said[0].split(" to ")[0] in said[0] and str(path) in said[0]
    code, out, err = run(capsys, *argv, "--out", "-")
    assert code == 0, err
    assert out.lstrip().startswith(("{", "digraph", "<?xml", "<svg"))
    assert "wrote " not in out
    to_stdout = [line for line in err.splitlines() if line.startswith("wrote ")]
    assert to_stdout == [said[0].replace(str(path), "standard output")]


@pytest.mark.parametrize(
    "argv",
    [
        ["heuristics", "-r", "p3c3", "--tie-break", "random"],
        ["compare", "-r", "p3c3", "--tie-break", "random"],
        ["simulate", "-r", "p3c3", "--tie-break", "random"],
        ["simulate", "-r", "p3c3", "--pool", "consistent"],
        ["export", "-r", "p3c3", "--pool", "consistent"],
    ],
)
def test_a_strategy_file_not_there_is_said_before_an_option_it_would_refuse(capsys, tmp_path, argv):
    # "--tie-break random: the strategy nonexist.json takes no --tie-break" hid the typo
    missing = str(tmp_path / "nonexist.json")
    code, out, err = run(capsys, *argv, "-s", missing)
    assert (code, out, err) == (2, "", f"error: --strategy: file not found: {missing}\n")
