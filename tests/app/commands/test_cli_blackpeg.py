"""Black-peg Mastermind (``--rules p4c6b``: answers of black pegs only) through every command,
its optima checked against a brute force that knows nothing of the package."""

from __future__ import annotations

import gzip
import io
import json
import sys
from collections import Counter
from functools import cache
from itertools import permutations, product
from pathlib import Path

import pytest

from mastermind.app.cli import main
from mastermind.core.game import Rules
from mastermind.core.variant import STANDARD, VARIANTS


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


@pytest.mark.parametrize("answer", ["1B1W", "1 0", "0 1"])
def test_assist_refuses_white_pegs_in_black_peg(answer, capsys, monkeypatch):
    """ "1 0" (the standard game's 1B0W as a pair) was read as 10 black pegs once its spaces
    went: "impossible feedback 10B" (a new user's trial)."""
    code, out, err = run(capsys, "assist", "-r", "p4c6b", stdin=f"{answer}\nquit\n", monkeypatch=monkeypatch)
    assert code == 0 and "black-peg answers tell no white pegs" in out and "impossible" not in out


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
    # its JSON names it too, as info's does (its rows had no "variant": a new user's trial)
    code, out, err = run(capsys, "table", "-g", "p2c3,p2c3b", "-j", "1", "--json")
    data = json.loads(out)
    validators["table"].validate(data)
    assert [row["variant"] for row in data["rows"]] == ["standard", "black-peg"]


# ---- results: the black-peg table (results/black-peg.md and .json) ---------------------------
RESULTS = Path(__file__).resolve().parents[3] / "results"
TINY = {"p2c2b": (2, 2), "p2c3b": (2, 3)}


def test_results_publishes_a_black_peg_table_of_proven_rows(capsys, validators, tmp_path):
    """Each row the optimal table's, with the brute force's optimum, its tree and a proof
    the checker accepts; the file holds the rows printed, in the schema's keys."""
    from mastermind.core.formats.jsonfmt import read_json
    from mastermind.core.game import CodeTable, Rules
    from mastermind.proofcheck import check_proof, load_proof

    out = tmp_path / "r"
    data = run_json(
        capsys,
        validators,
        "results",
        "--out",
        str(out),
        "--table",
        "black-peg",
        "-g",
        "p2c2b,p2c3b",
        "-j",
        "1",
    )
    rows = data["tables"]["black-peg"]
    assert [r["game"] for r in rows] == list(TINY) and data["stopped"] is None
    for row in rows:
        pegs, colours = TINY[row["game"]]
        least_total, least_worst = brute_optimum(pegs, colours)
        assert row["status"] == "proven" and row["rules"] == f"p{pegs}c{colours}rb"
        assert (row["total"], row["optimal_worst"], row["codes"]) == (least_total, least_worst, colours**pegs)
        assert row["worst"] >= least_worst and row["worst_total"] >= least_total
        assert row["command"] == (
            f"mastermind results --out {out} --table black-peg --games {row['game']} --jobs 1 "
            "--row-time-limit 600"
        )
        rules = Rules.parse(row["rules"])
        tree, _ = read_json(gzip.decompress((out / row["tree"]["file"]).read_bytes()).decode())
        assert tree.stats(CodeTable(rules)).total == least_total
        outcome = check_proof(load_proof(str(out / row["proof"]["file"])))
        assert (outcome.rules, outcome.total, outcome.worst) == (row["rules"], least_total, least_worst)
        # in the range of Jäger and Peczarski's worst cases, whose values are not transcribed
        assert row["literature"] == "published, not transcribed here"
        assert "Jäger and Peczarski 2011" in row["literature_note"]
    doc = json.loads((out / "black-peg.json").read_text())
    assert doc["format"] == "mastermind-black-peg" and doc["rows"] == rows
    assert sorted(p.name for p in out.iterdir()) == ["black-peg.json", "black-peg.md", "proofs", "trees"]


def test_the_black_peg_table_in_markdown(tmp_path):
    from mastermind.app.publishing import run_tables

    done = run_tables(tmp_path, tables=("black-peg",), games=list(TINY), row_time_limit=None, jobs=1)
    text = (tmp_path / "black-peg.md").read_text()
    assert text.startswith("# Optimal strategies for black-peg Mastermind\n")
    assert "Games: p2c2b, p2c3b;" in text and "2 proven, 0 open;" in text
    assert "Jäger and M. Peczarski" in text and "could be consulted here" in text
    for row in done["black-peg"]:
        line = next(x for x in text.splitlines() if x.startswith(f"| {row['game']} |"))
        cells = [c.strip() for c in line.strip("|").split("|")]
        assert cells[5] == str(row["total"]) and cells[8] == str(row["optimal_worst"])
        assert cells[13] == "published, not transcribed here"
        assert cells[-1] == f"`proofs/{row['game']}.proof.json.gz`"


def test_each_table_takes_the_games_of_its_variant():
    from mastermind.app.documents import TABLES
    from mastermind.app.publishing.scope import BLACK_PEG_SCOPE, game_id
    from mastermind.app.publishing.tables import planned_work

    work = planned_work(TABLES, ["p2c2b", "p2c2"])
    assert [(t, str(r)) for t, r in work] == [
        ("optimal", "p2c2r"),
        ("game-values", "p2c2r"),
        ("black-peg", "p2c2rb"),
    ]
    scope = [rules for _, rules in planned_work(("black-peg",), None)]  # smallest first
    assert [r.n_codes for r in scope] == sorted(r.n_codes for r in scope)
    assert sorted(game_id(r) for r in scope) == sorted(BLACK_PEG_SCOPE)
    assert all(r.variant.name == "black-peg" for r in scope)
    assert not any(r.variant.name == "black-peg" for t, r in planned_work(("optimal", "game-values"), None))


@pytest.mark.parametrize(
    "args, message",
    [
        (
            ["-g", "p2c3b", "--table", "optimal"],
            "p2c3rb is black-peg Mastermind: its rows go to --table black-peg, not optimal",
        ),
        (
            ["-g", "p2c3b", "--table", "game-values"],
            "p2c3rb is black-peg Mastermind: its rows go to --table black-peg, not game-values",
        ),
        (
            ["-g", "p2c3", "--table", "black-peg"],
            "p2c3r is the standard game: its rows go to --table optimal or --table game-values, "
            "not black-peg",
        ),
    ],
)
def test_results_refuses_a_game_for_a_table_of_another_variant(capsys, tmp_path, args, message):
    code, out, err = run(capsys, "results", "--out", str(tmp_path / "r"), *args)
    assert (code, out, err) == (2, "", f"error: --games: {message}\n")
    assert not (tmp_path / "r").exists()


def test_results_refuses_a_variant_no_table_holds(capsys, tmp_path, monkeypatch):
    """(Every variant has its table today: one without, as black-peg had, is refused.)"""
    from mastermind.app.publishing import scope
    from mastermind.core.variant import STANDARD

    monkeypatch.setattr(scope, "TABLE_VARIANTS", {"optimal": STANDARD, "game-values": STANDARD})
    code, out, err = run(capsys, "results", "--out", str(tmp_path / "r"), "-g", "p2c3b")
    assert (code, out) == (
        2,
        "",
    ) and err == "error: --games: p2c3rb is black-peg Mastermind: no table of results holds it\n"
    assert not (tmp_path / "r").exists()


def test_a_row_of_another_variant_in_a_table_is_refused(tmp_path, capsys):
    from mastermind.app.publishing import run_tables

    run_tables(tmp_path, tables=("black-peg",), games=["p2c2b"], row_time_limit=None, jobs=1)
    doc = json.loads((tmp_path / "black-peg.json").read_text())
    doc["rows"][0]["game"], doc["rows"][0]["rules"] = "p2c2", "p2c2r"
    (tmp_path / "black-peg.json").write_text(json.dumps(doc))
    code, out, err = run(capsys, "results", "--out", str(tmp_path), "--table", "black-peg", "-g", "p2c3b")
    assert code == 2 and err == (
        f"error: --out: {tmp_path / 'black-peg.json'}: row 1 (p2c2) is a game of standard Mastermind, "
        "this table holds black-peg games\n"
    )


def test_the_committed_black_peg_table_agrees_with_a_brute_force():
    """The published optima of the games small enough for the brute force (the others are
    recomputed in tests/app/test_publishing.py, their proofs checked in tests/proofcheck)."""
    from mastermind.app.publishing.files import BLACK_PEG_FORMAT, read_rows
    from mastermind.app.publishing.scope import BLACK_PEG_SCOPE

    rows = {r["game"]: r for r in read_rows(RESULTS / "black-peg.json", BLACK_PEG_FORMAT)}
    assert set(rows) == set(BLACK_PEG_SCOPE)
    for game, (pegs, colours, repeat) in {
        "p2c2b": (2, 2, True),
        "p2c3b": (2, 3, True),
        "p3c2b": (3, 2, True),
        "p3c3nb": (3, 3, False),
    }.items():
        least_total, least_worst = brute_optimum(pegs, colours, repeat)
        assert (rows[game]["total"], rows[game]["optimal_worst"]) == (least_total, least_worst), game


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_a_games_optimal_rows_go_to_the_table_of_its_variant(variant):
    """The table is read from the variant (its name), not spelt beside it: each variant's
    optimal rows go to a table ``results`` publishes, and that table holds that variant."""
    from mastermind.app.documents import TABLES
    from mastermind.app.publishing.scope import TABLE_VARIANTS, optimal_table, tables_of

    rules = Rules(3, 3, variant=variant)
    table = optimal_table(rules)
    assert table in TABLES and TABLE_VARIANTS[table] is rules.variant and table in tables_of(rules)
    assert table == ("optimal" if rules.variant is STANDARD else rules.variant.name)
