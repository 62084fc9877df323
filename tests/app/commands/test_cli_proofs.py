"""``mastermind optimal --proof`` and ``mastermind verify PROOF`` at the command line."""

from __future__ import annotations

import gzip
import io
import json
from pathlib import Path

import pytest

from mastermind.app.cli import main

ROOT = Path(__file__).resolve().parents[3]
P4C6 = ROOT / "results" / "proofs" / "p4c6.proof.json.gz"


def run(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def test_verify_a_committed_proof(capsys, validators):
    code, out, err = run(capsys, "verify", P4C6)
    assert code == 0 and err == ""
    assert "total      5625 is optimal\n" in out and "worst      worst case 5 is optimal\n" in out
    code, out, _ = run(capsys, "verify", P4C6, "--json")
    data = json.loads(out)
    validators["verify"].validate(data)
    assert (data["valid"], data["total"], data["worst"], data["rules"], data["errors"]) == (
        True,
        5625,
        5,
        "p4c6r",
        [],
    )
    assert data["failing_fact"] is None and data["weight_sum"] is None  # (not a game value's)


def test_verify_names_the_fact_that_fails(capsys, tmp_path, validators):
    data = json.loads(gzip.decompress(P4C6.read_bytes()))
    root = next(i for i, f in enumerate(data["facts"]) if not f["path"] and "total" in f)
    data["facts"][root]["total"] += 1
    bad = tmp_path / "bad.proof.json"  # (not compressed: told by its content all the same)
    bad.write_text(json.dumps(data))
    code, out, err = run(capsys, "verify", bad)
    assert code == 1 and out == ""
    assert err.startswith(f"error: {bad} is not a valid proof: fact {root} (path []; claims total >= 5626)")
    assert "leaves total >= 5625 only" in err and err.count("\n") == 1
    code, out, _ = run(capsys, "verify", bad, "--json")
    result = json.loads(out)
    validators["verify"].validate(result)
    assert code == 1 and result["valid"] is False and result["total"] is None
    assert result["errors"][0].startswith(f"fact {root} ") and result["failing_fact"] == root
    # the game its header names is said all the same (it was null: a new user's trial)
    assert (result["rules"], result["secrets"]) == ("p4c6r", 1296)
    data["total"] = 5624  # (the strategy fails first: no fact to name)
    bad.write_text(json.dumps(data))
    code, out, _ = run(capsys, "verify", bad, "--json")
    result = json.loads(out)
    validators["verify"].validate(result)
    assert code == 1 and result["failing_fact"] is None
    assert result["errors"] == ["strategy: its total is 5625, the proof claims 5624"]


def test_optimal_writes_a_proof_that_verify_accepts(capsys, tmp_path, validators):
    path = tmp_path / "p3c4.proof.json.gz"
    code, out, err = run(capsys, "optimal", "-r", "p3c4", "--no-cache", "--proof", path, "--json")
    assert code == 0, err
    data = json.loads(out)
    validators["optimal"].validate(data)
    assert data["proof"]["file"] == str(path) and (data["proof"]["total"], data["proof"]["worst"]) == (206, 4)
    code, out, _ = run(capsys, "verify", path)
    assert code == 0 and "total      206 is optimal" in out
    worst = tmp_path / "worst.proof.json"
    code, out, err = run(capsys, "optimal", "-r", "p3c4", "--objective", "worst", "--proof", worst)
    assert code == 0 and "wrote the proof (worst case 4; " in out
    code, out, _ = run(capsys, "verify", worst)
    assert code == 0 and "worst case 4 is optimal" in out and "total " not in out


@pytest.mark.parametrize("game", ["p3c3", "p4c4", "p3c4b"])
def test_the_proof_written_is_the_document_the_pass_holds(capsys, tmp_path, game):
    # written fact by fact as the pass makes them: the same text as the document held whole
    from mastermind.core.game import CodeTable, Rules
    from mastermind.engines.exact import Execution, solve
    from mastermind.engines.exact.certify import prove

    path = tmp_path / f"{game}.proof.json.gz"
    code, out, err = run(capsys, "optimal", "-r", game, "-j", "1", "--no-cache", "--proof", path, "--json")
    assert code == 0, err
    table = CodeTable(Rules.parse(game))
    result = solve(table, execution=Execution(jobs=1))
    held = json.dumps(prove(table, result.tree.root, result.total), separators=(",", ":"))
    assert gzip.decompress(path.read_bytes()).decode() == held
    assert json.loads(out)["proof"]["facts"] == len(json.loads(held)["facts"])
    code, out, _ = run(capsys, "verify", path)
    assert code == 0 and f"total      {result.total} is optimal" in out


def test_bad_input_is_one_line(capsys, tmp_path):
    for args in (
        ["optimal", "-r", "p3c3", "--first", "123", "--proof", tmp_path / "a.json.gz"],
        ["optimal", "-r", "p3c3", "--proof", "-", "--json"],
        ["optimal", "-r", "p3c3", "--proof", "-", "--out", "-"],
        ["optimal", "-r", "p3c3", "--proof", tmp_path / "s.json", "--out", tmp_path / "s.json"],
        ["optimal", "-r", "p3c3", "--proof", tmp_path / "missing" / "a.json.gz"],
        ["verify", tmp_path / "absent.proof.json.gz"],
    ):
        code, out, err = run(capsys, *args)
        assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, (args, err)
    broken = tmp_path / "cut.proof.json"
    broken.write_text('{"format": "mastermind-proof", "version": 1, "rules": "p3c3r", "facts": [')
    code, out, err = run(capsys, "verify", broken)
    assert code == 1 and "is not a valid proof: not JSON" in err and err.count("\n") == 1


def test_a_damaged_proof_is_told_by_its_name(capsys, tmp_path, validators):
    """Content that names no format (a damaged gzip, cut short, not text) in a file named as
    a proof is checked as one: refused as a proof, not as a strategy (a new user's trial)."""
    raw = P4C6.read_bytes()
    inner = gzip.decompress(raw)
    for name, content in [
        ("flipped.proof.json.gz", raw[:30] + bytes(b ^ 0xFF for b in raw[30:60]) + raw[60:]),
        ("cut.proof.json.gz", raw[: len(raw) // 2]),
        ("magic.proof.json.gz", b"XX" + raw[2:]),
        ("cut.proof.json", inner[:5]),
    ]:
        (tmp_path / name).write_bytes(content)
        code, out, err = run(capsys, "verify", tmp_path / name)
        assert code == 1 and err.startswith(f"error: {tmp_path / name} is not a valid proof: "), err
        code, out, _ = run(capsys, "verify", tmp_path / name, "--json")
        result = json.loads(out)
        validators["verify"].validate(result)
        assert code == 1 and result["proof"] == str(tmp_path / name) and result["failing_fact"] is None
    (tmp_path / "damaged.json.gz").write_bytes(raw[: len(raw) // 2])  # (no name of a proof)
    code, _, err = run(capsys, "verify", tmp_path / "damaged.json.gz")
    assert code == 1 and "is not a valid strategy: " in err


@pytest.mark.parametrize(("table", "suffix"), [("optimal", ""), ("game-values", ".game-value")])
def test_results_writes_a_proof_per_proven_row(capsys, tmp_path, table, suffix):
    out = tmp_path / "res"
    code, _, err = run(capsys, "results", "--out", out, "--games", "p2c3,p3c3n", "--table", table, "-j", "1")
    assert code == 0, err
    rows = json.loads((out / f"{table}.json").read_text())["rows"]
    files = [f"proofs/{game}{suffix}.proof.json.gz" for game in ("p2c3", "p3c3n")]
    assert [row["proof"]["file"] for row in rows] == files
    assert f"| `{files[0]}` |" in (out / f"{table}.md").read_text()
    trees = ["trees"] if table == "optimal" else []  # (a game value's row has no tree)
    assert sorted(p.name for p in out.iterdir()) == [f"{table}.json", f"{table}.md", "proofs", *trees]
    for row in rows:
        assert (out / row["proof"]["file"]).stat().st_size == row["proof"]["bytes"]
        code, text, _ = run(capsys, "verify", out / row["proof"]["file"])
        assert code == 0, text
        if table == "optimal":
            assert f"total      {row['total']} is optimal" in text
            assert f"worst case {row['optimal_worst']} is optimal" in text
        else:
            assert f"game value {row['average_fraction']} = " in text and " is proven: " in text


@pytest.mark.parametrize("game", ["p3c4", "p4c4"])
def test_results_writes_the_proof_optimal_writes(capsys, tmp_path, game):
    # one writer for both: the row's proof is streamed by the pass optimal --proof runs, to
    # the byte; staged beside the tables and moved into place, nothing left behind
    out, alone = tmp_path / "res", tmp_path / f"{game}.proof.json.gz"
    code, _, err = run(capsys, "results", "--out", out, "--games", game, "--table", "optimal", "-j", "1")
    assert code == 0, err
    code, _, err = run(capsys, "optimal", "-r", game, "-j", "1", "--no-cache", "--proof", alone)
    assert code == 0, err
    written = out / "proofs" / f"{game}.proof.json.gz"
    assert written.read_bytes() == alone.read_bytes()
    [row] = json.loads((out / "optimal.json").read_text())["rows"]
    held = json.loads(gzip.decompress(alone.read_bytes()))
    assert row["proof"] == {
        "file": f"proofs/{game}.proof.json.gz",
        "bytes": alone.stat().st_size,
        "facts": len(held["facts"]),
    }
    assert held["worst"] == row["optimal_worst"]
    assert sorted(p.name for p in out.iterdir()) == ["optimal.json", "optimal.md", "proofs", "trees"]
    assert [p.name for p in (out / "proofs").iterdir()] == [written.name]


def _proof_optimal_wrote(capsys, monkeypatch, tmp_path):
    """A results folder whose proofs/ holds p2c3's proof, written by optimal --proof, for a
    results that certifies no game (every game "too big" for it)."""
    from mastermind.app.publishing import runner

    monkeypatch.setattr(runner, "PROOF_MAX_CODES", 0)
    out = tmp_path / "res"
    (out / "proofs").mkdir(parents=True)
    written = out / "proofs" / "p2c3.proof.json.gz"
    code, _, err = run(capsys, "optimal", "-r", "p2c3", "-j", "1", "--no-cache", "--proof", written)
    assert code == 0, err
    return out, written


def test_a_row_results_does_not_certify_names_the_proof_optimal_wrote(capsys, monkeypatch, tmp_path):
    # a game over the size results certifies (4x8 and up): its proof, written by optimal
    # --proof into proofs/, is named by the row when it claims the row's values, and only then
    out, written = _proof_optimal_wrote(capsys, monkeypatch, tmp_path)
    other = out / "proofs" / "p2c4.proof.json.gz"  # (a proof of another game, under p2c4's name)
    code, _, err = run(capsys, "optimal", "-r", "p2c3n", "-j", "1", "--no-cache", "--proof", other)
    assert code == 0, err
    code, _, err = run(
        capsys, "results", "--out", out, "--games", "p2c3,p2c4", "--table", "optimal", "-j", "1"
    )
    assert code == 0, err
    rows = {row["game"]: row for row in json.loads((out / "optimal.json").read_text())["rows"]}
    held = json.loads(gzip.decompress(written.read_bytes()))
    assert rows["p2c3"]["proof"] == {
        "file": "proofs/p2c3.proof.json.gz",
        "bytes": written.stat().st_size,
        "facts": len(held["facts"]),
    }
    assert rows["p2c4"]["proof"] is None
    markdown = (out / "optimal.md").read_text()
    assert "| `proofs/p2c3.proof.json.gz` |" in markdown and "`proofs/p2c4" not in markdown


def test_a_game_value_s_proof_never_names_an_optimal_row(capsys, tmp_path):
    # its weighted total may equal a plain total by chance: only a proof of optimal values
    # (version 1) names an optimal row
    from mastermind.app.publishing.written_proofs import with_written_proofs

    (tmp_path / "proofs").mkdir()
    path = tmp_path / "proofs" / "p2c2.proof.json.gz"
    code, _, err = run(capsys, "game-value", "-r", "p2c2", "--proof", path)
    assert code == 0, err
    held = json.loads(gzip.decompress(path.read_bytes()))
    row = {"game": "p2c2", "status": "proven", "total": held["total"], "optimal_worst": None, "proof": None}
    assert with_written_proofs(tmp_path, [row]) == [row]
    code, _, err = run(capsys, "optimal", "-r", "p2c2", "-j", "1", "--no-cache", "--proof", path)
    assert code == 0, err
    row = {**row, "total": 8, "optimal_worst": 3}
    assert with_written_proofs(tmp_path, [row])[0]["proof"]["file"] == "proofs/p2c2.proof.json.gz"


def _stop_the_pass_at_its_fact(monkeypatch, number: int, reason: str) -> None:
    """Each proof pass's ``number``-th fact cancels the pass's token as it begins (as Ctrl-C
    or the time limit does: see mastermind.app.interrupts)."""
    from mastermind.engines.exact.certify import Certifier

    original = Certifier.certify

    def certify(self, *args, **kwargs):
        begun = vars(self)["facts_begun"] = vars(self).get("facts_begun", 0) + 1  # (this pass's)
        if begun == number:
            self.token.cancel(reason)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(Certifier, "certify", certify)


@pytest.mark.parametrize("reason, code", [("interrupted", 130), ("time limit", 0)])
def test_a_proof_stopped_keeps_the_optimum_and_writes_nothing(
    capsys, tmp_path, monkeypatch, validators, reason, code
):
    # Ctrl-C in the pass after the search printed "interrupted" alone (exit 130): the
    # proven optimum was lost; a time limit is an answer (exit 0) as elsewhere
    _, out, _ = run(capsys, "optimal", "-r", "p4c4", "-j", "1", "--no-cache", "--json")
    plain = json.loads(out)
    path = tmp_path / "p4c4.proof.json.gz"
    _stop_the_pass_at_its_fact(monkeypatch, 5, reason)
    got, out, err = run(capsys, "optimal", "-r", "p4c4", "-j", "1", "--no-cache", "--proof", path, "--json")
    data = json.loads(out)
    validators["optimal"].validate(data)
    assert got == code and not path.exists()
    assert data["proven"] is True and data["stopped"] == reason and data["proof"] is None
    keys = ("total", "worst", "histogram")
    assert [data[k] for k in keys] == [plain[k] for k in keys]
    got, out, err = run(capsys, "optimal", "-r", "p4c4", "-j", "1", "--no-cache", "--proof", path)
    assert got == code and not path.exists()
    assert f"total        {plain['total']} over" in out and "proven       yes" in out
    said = f"nothing written to {path}: the proof stopped ({reason}) before it was written"
    assert err.strip().splitlines() == [f"{said}; a file already there is left as it was"]
    # the facts before the stop went to a temporary file beside it: gone, and a file
    # already there is as it was
    assert list(tmp_path.iterdir()) == []
    path.write_bytes(b"kept")
    got, _, _ = run(capsys, "optimal", "-r", "p4c4", "-j", "1", "--no-cache", "--proof", path, "--json")
    assert got == code and path.read_bytes() == b"kept" and list(tmp_path.iterdir()) == [path]


def test_a_proof_file_is_read_as_checked_not_under_the_strategy_files_cap(capsys, monkeypatch, tmp_path):
    # (the cap of 256 MiB made small: a proof bigger than it checks; a strategy file and a
    # proof on standard input, read whole, are still held to it)
    from mastermind.app.commands import files
    from mastermind.core.fileio import read_text

    monkeypatch.setattr(files, "read_text", lambda path: read_text(path, limit=500))
    proof = ROOT / "results" / "proofs" / "p4c5.proof.json.gz"
    assert len(gzip.decompress(proof.read_bytes())) > 500
    code, out, err = run(capsys, "verify", proof)
    assert code == 0 and "total      2463 is optimal" in out and err == ""
    plain = tmp_path / "p4c5.proof.json"  # (not compressed: told by its content)
    plain.write_bytes(gzip.decompress(proof.read_bytes()))
    code, out, err = run(capsys, "verify", plain)
    assert code == 0 and "total      2463 is optimal" in out
    tree = ROOT / "tests" / "data" / "p4c6r-knuth.txt"
    code, out, err = run(capsys, "verify", tree)
    assert code == 2 and "larger than 500 bytes" in err and err.count("\n") == 1
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(proof.read_bytes())))
    code, out, err = run(capsys, "verify", "-")
    assert code == 2 and "larger than 500 bytes" in err and err.count("\n") == 1


def test_a_proof_that_would_not_fit_is_refused_before_any_work(capsys, monkeypatch):
    import mastermind.proofcheck

    def no_work(*args, **kwargs):
        raise AssertionError("the check began")

    monkeypatch.setattr(mastermind.proofcheck, "check_proof", no_work)
    for extra in ([], ["--json"]):
        code, out, err = run(capsys, "verify", P4C6, "--memory-limit", "0.1", *extra)
        assert code == 2 and out == "" and err.count("\n") == 1, err
        assert err.startswith(f"error: checking {P4C6} (803 facts) needs about ")
        assert err.endswith("above the memory limit of 102.4 MiB; raise it with --memory-limit\n")


def test_a_proof_to_standard_output_is_the_file_alone(capsys, tmp_path):
    # as game-value --proof -: standard output holds the proof, the report goes to standard
    # error, the line saying the tree was written to its file too (it followed the proof)
    tree = tmp_path / "tree.json"
    args = ["optimal", "-r", "p3c3", "-j", "1", "--no-cache", "--proof", "-", "--out", tree]
    code, out, err = run(capsys, *args)
    assert (
        code == 0 and "total        73 over 27 secrets" in err and f"wrote the strategy tree to {tree}" in err
    )
    assert out.endswith("}\n") and out.count("\n") == 1
    assert "wrote the proof (total 73 and worst case 4; " in err and err.rstrip().endswith(
        "to standard output"
    )
    held = json.loads(out)
    assert held["format"] == "mastermind-proof" and held["total"] == 73
    path = tmp_path / "p3c3.proof.json"
    path.write_text(out)
    code, text, _ = run(capsys, "verify", path)
    assert code == 0 and "total      73 is optimal" in text


def test_a_proof_is_told_by_its_format_in_any_key_order(capsys, tmp_path):
    # its format key last (any key order is read) or a BOM before it, with -f json too: checked
    # as a proof, where it was read as a strategy file (a new user's trial)
    held = json.loads(gzip.decompress(P4C6.read_bytes()))
    last = {k: v for k, v in held.items() if k != "format"} | {"format": held["format"]}
    cases = {
        "last.json.gz": gzip.compress(json.dumps(last).encode()),
        "bom.json": ("\ufeff" + json.dumps(held)).encode(),
    }
    for name, raw in cases.items():
        path = tmp_path / name
        path.write_bytes(raw)
        for extra in ([], ["-f", "json"]):
            code, out, err = run(capsys, "verify", path, *extra)
            assert code == 0 and "total      5625 is optimal" in out, (name, extra, err)


@pytest.mark.parametrize("table, suffix", [("game-values", ".game-value"), ("optimal", "")])
def test_a_row_whose_proof_was_deleted_names_it_no_more(capsys, tmp_path, table, suffix):
    out = tmp_path / "res"
    code, _, err = run(capsys, "results", "--out", out, "--table", table, "--games", "p2c3", "-j", "1")
    assert code == 0, err
    (out / "proofs" / f"p2c3{suffix}.proof.json.gz").unlink()
    code, _, err = run(capsys, "results", "--out", out, "--table", table, "--games", "p2c2", "-j", "1")
    assert code == 0, err
    rows = {row["game"]: row for row in json.loads((out / f"{table}.json").read_text())["rows"]}
    assert rows["p2c3"]["proof"] is None
    assert rows["p2c2"]["proof"]["file"] == f"proofs/p2c2{suffix}.proof.json.gz"
    assert f"`proofs/p2c3{suffix}" not in (out / f"{table}.md").read_text()


def test_a_row_computed_alone_or_again_names_the_proof_optimal_wrote(capsys, monkeypatch, tmp_path):
    # the row just merged (alone in its run, or run again) names the file too: not only once
    # another row's merge came after it
    out, written = _proof_optimal_wrote(capsys, monkeypatch, tmp_path)
    for _ in range(2):
        code, _, err = run(
            capsys, "results", "--out", out, "--games", "p2c3", "--table", "optimal", "-j", "1"
        )
        assert code == 0, err
        [row] = json.loads((out / "optimal.json").read_text())["rows"]
        assert row["proof"]["file"] == "proofs/p2c3.proof.json.gz"


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full on this system")
def test_the_file_written_is_said_when_the_other_could_not_be(capsys, tmp_path):
    # a proof the disk would not take hid the line saying the tree was written, and the other way
    for out, proof, said in (
        (tmp_path / "t.json", "/dev/full", f"wrote the strategy tree to {tmp_path / 't.json'}"),
        ("/dev/full", tmp_path / "p.json", "wrote the proof (total 21 and worst case 3; "),
    ):
        code, text, err = run(
            capsys, "optimal", "-r", "p2c3", "-j", "1", "--no-cache", "--out", out, "--proof", proof
        )
        assert code == 2 and said in text and err.count("error: ") == 1, (text, err)
        assert "nothing written to /dev/full: the" not in text + err
