"""Black-peg Mastermind (``--rules p4c6b``: answers of black pegs only) through every command,
its optima checked against a brute force that knows nothing of the package."""

from __future__ import annotations

import io
import json
import sys
from collections import Counter
from functools import cache
from itertools import permutations, product

import pytest

from mastermind.app.cli import main


def run(capsys, *args, stdin=None, monkeypatch=None):
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def run_json(capsys, validators, *args):
    code, out, err = run(capsys, *args, "--json")
    assert code == 0, err
    data = json.loads(out)
    validators[args[0]].validate(data)
    return data


# ---- a brute force by hand: codes as tuples, blacks counted, every guess tried -------------
def all_codes(pegs, colours, repeat=True):
    if repeat:
        return list(product(range(colours), repeat=pegs))
    return list(permutations(range(colours), pegs))


def blacks(secret, guess):
    return sum(s == g for s, g in zip(secret, guess))


def brute_optimum(pegs, colours, repeat=True):
    """(least total, least worst case) over every strategy, guesses from every code."""
    codes = all_codes(pegs, colours, repeat)

    def classes(cands, guess):
        split = {}
        for s in cands:
            split.setdefault(blacks(s, guess), []).append(s)
        return split

    @cache
    def total(cands):
        best = None
        for g in codes:
            split = classes(cands, g)
            if len(split) == 1 and pegs not in split:
                continue  # teaches nothing
            cost = len(cands) + sum(total(tuple(c)) for b, c in split.items() if b != pegs)
            best = cost if best is None else min(best, cost)
        return best

    @cache
    def worst(cands):
        best = None
        for g in codes:
            split = classes(cands, g)
            if len(split) == 1 and pegs not in split:
                continue
            depth = 1 + max((worst(tuple(c)) for b, c in split.items() if b != pegs), default=0)
            best = depth if best is None else min(best, depth)
        return best

    return total(tuple(codes)), worst(tuple(codes))


@pytest.mark.parametrize("pegs,colours,repeat", [(2, 2, True), (2, 3, True), (3, 2, True), (3, 3, False)])
def test_optimal_agrees_with_a_brute_force(capsys, validators, pegs, colours, repeat):
    rules = f"p{pegs}c{colours}{'r' if repeat else 'n'}b"
    least_total, least_worst = brute_optimum(pegs, colours, repeat)
    data = run_json(capsys, validators, "optimal", "-r", rules, "-j", "1", "--no-cache")
    assert data["rules"] == rules and data["proven"]
    assert data["total"] == least_total
    assert sum(data["histogram"]) == len(all_codes(pegs, colours, repeat))
    worst = run_json(
        capsys, validators, "optimal", "-r", rules, "-j", "1", "--objective", "worst", "--no-cache"
    )
    assert worst["proven"] and worst["worst"] == least_worst


def test_black_peg_costs_more_than_the_standard_game(capsys, validators):
    black = run_json(capsys, validators, "optimal", "-r", "p3c3b", "-j", "1")
    standard = run_json(capsys, validators, "optimal", "-r", "p3c3", "-j", "1")
    assert black["total"] > standard["total"]


def test_score(capsys, validators):
    assert run(capsys, "score", "1122", "1234", "-r", "p4c6b")[:2] == (0, "1B\n")
    data = run_json(capsys, validators, "score", "3632", "3526", "-r", "4x6b")
    assert (data["rules"], data["feedback"], data["black"], data["white"]) == ("p4c6rb", "1B", 1, None)


def test_info(capsys, validators):
    data = run_json(capsys, validators, "info", "-r", "p3c3nb")
    assert data["variant"] == "black-peg" and data["feedbacks"] == ["0B", "1B", "3B"]
    codes = all_codes(3, 3, False)
    assert data["answers"] == len({blacks(s, g) for s in codes for g in codes})
    assert run_json(capsys, validators, "info", "-r", "p3c3n")["variant"] == "standard"


def test_partition(capsys, validators):
    data = run_json(capsys, validators, "partition", "1123", "-r", "p4c6b")
    sizes = {c["feedback"]: c["size"] for c in data["partitions"][0]["classes"]}
    guess = (0, 0, 1, 2)
    by_hand = Counter(f"{blacks(s, guess)}B" for s in all_codes(4, 6))
    assert sizes == dict(by_hand)


def test_heuristics_and_simulate(capsys, validators):
    data = run_json(capsys, validators, "heuristics", "-r", "p3c3b", "--no-cache")
    assert data["rules"] == "p3c3rb"
    least_total, _ = brute_optimum(3, 3)
    for row in data["strategies"]:
        assert sum(row["histogram"]) == 27 and row["total"] >= least_total
    sim = run_json(capsys, validators, "simulate", "-r", "p3c3b", "-s", "entropy", "--seed", "3")
    assert sim["rules"] == "p3c3rb" and sim["worst"] >= 1


def test_static_plays_the_variant_and_refuses_black_only(capsys, validators):
    data = run_json(capsys, validators, "static", "-r", "p2c3b", "--seed", "1", "-j", "1")
    assert data["rules"] == "p2c3rb" and data["proven"]
    codes = all_codes(2, 3)
    chosen = [tuple(int(ch) - 1 for ch in g) for g in data["guess_set"]]
    assert len({tuple(blacks(s, g) for g in chosen) for s in codes}) == len(codes)
    code, out, err = run(capsys, "static", "-r", "p2c3", "--black-only")
    assert (
        code == 2
        and out == ""
        and err == "error: --black-only is gone: black-peg Mastermind is a game of its own, --rules p2c3rb\n"
    )


@pytest.mark.parametrize("fmt", ["irving", "json"])
def test_export_and_verify_keep_the_variant(capsys, validators, tmp_path, fmt):
    path = tmp_path / f"tree.{'txt' if fmt == 'irving' else 'json'}"
    code, _, err = run(capsys, "export", "-r", "p3c3b", "-s", "minimax", "-o", str(path))
    assert code == 0, err
    text = path.read_text()
    if fmt == "irving":  # one entry per group of black pegs
        assert text.startswith("27(111: ") and text.count(";") >= 3
    data = run_json(capsys, validators, "verify", str(path))
    assert data["rules"] == "p3c3rb" and data["valid"]
    code, out, err = run(capsys, "verify", str(path), "-r", "p3c3")
    assert code == 1 and "p3c3r" in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_a_standard_file_is_refused_for_black_peg(capsys, tmp_path):
    path = tmp_path / "tree.txt"
    assert run(capsys, "export", "-r", "p2c3", "-s", "minimax", "-o", str(path))[0] == 0
    code, _, err = run(capsys, "verify", str(path), "-r", "p2c3b")
    assert code == 1 and "needs 1" in err


def test_a_checkpoint_of_one_variant_is_refused_for_the_other(capsys, tmp_path):
    folder = str(tmp_path / "ck")
    assert run(capsys, "optimal", "-r", "p2c3", "--checkpoint", folder, "--no-cache")[0] == 0
    code, _, err = run(capsys, "optimal", "-r", "p2c3b", "--checkpoint", folder, "--no-cache")
    assert code == 2 and "rules p2c3r)" in err and "rules p2c3rb)" in err


def test_the_result_cache_tells_the_variants_apart(capsys, validators):
    first = run_json(capsys, validators, "optimal", "-r", "p2c3", "-j", "1")
    other = run_json(capsys, validators, "optimal", "-r", "p2c3b", "-j", "1")
    assert other["cached"] is False and other["total"] != first["total"]
    assert run_json(capsys, validators, "optimal", "-r", "p2c3b", "-j", "1")["cached"] is True


def test_solve(capsys, validators):
    data = run_json(capsys, validators, "solve", "231", "-r", "p3c3b", "-s", "minimax")
    assert data["turns"][-1]["feedback"] == "3B" and data["turns"][-1]["white"] is None
    secret = (1, 2, 0)
    for turn in data["turns"]:
        guess = tuple(int(ch) - 1 for ch in turn["guess"])
        assert turn["black"] == blacks(secret, guess)


def test_assist_takes_answers_as_numbers(capsys, monkeypatch):
    code, out, err = run(capsys, "assist", "-r", "p2c3b", stdin="1\n0\n2\n", monkeypatch=monkeypatch)
    assert code == 0 and err == ""
    assert "Solved: the secret is 21, found in 3 guesses." in out


def test_assist_refuses_white_pegs_in_black_peg(capsys, monkeypatch):
    code, out, err = run(capsys, "assist", "-r", "p2c3b", stdin="1B1W\nquit\n", monkeypatch=monkeypatch)
    assert code == 0 and "black-peg answers tell no white pegs" in out


def test_play_answers_black_pegs(capsys, monkeypatch):
    guesses = ["11", "23", "32"]
    stdin = "".join(f"{g}\n" for g in guesses) + "give up\n"
    code, out, err = run(capsys, "play", "-r", "p2c3b", "--seed", "1", stdin=stdin, monkeypatch=monkeypatch)
    assert code == 0 and err == ""
    secret = tuple(int(ch) - 1 for ch in out.split("The secret was ", 1)[1][:2])
    for k, g in enumerate(guesses, 1):
        answer = out.split(f"guess {k}> {g}\n", 1)[1].splitlines()[0]
        assert answer == f"{blacks(secret, tuple(int(ch) - 1 for ch in g))}B"


@pytest.mark.parametrize(
    "argv", [["info", "-r", "p4c6bn"], ["info", "-r", "p4c6w"], ["table", "-g", "p2c2x"]]
)
def test_bad_rules_are_one_line(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_table_names_the_variant_of_each_row(capsys, validators):
    code, out, err = run(capsys, "table", "-g", "p2c3,p2c3b", "-j", "1")
    assert code == 0, err
    header, _, standard, black = out.strip().splitlines()[-4:]
    assert "| variant |" in header
    assert "| standard |" in standard and "| black-peg |" in black
    plain = run(capsys, "table", "-g", "p2c3", "-j", "1")[1]
    assert "variant" not in plain


def test_results_refuses_a_black_peg_game(capsys, tmp_path):
    """The tables of results/ are the standard game's: a black-peg row would be published
    under a standard game's name and compared with the standard game's literature."""
    code, out, err = run(capsys, "results", "--games", "p2c3b", "--out", str(tmp_path / "r"))
    assert code == 2 and "black-peg" in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "r").exists()
