import json
import re
from fractions import Fraction
from pathlib import Path

import pytest

from mastermind.app.cli import main


def test_json_output(capsys):
    assert main(["game-value", "-r", "p2c3", "--solver", "search", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) >= {
        "rules",
        "proven",
        "average",
        "average_fraction",
        "average_lower_bound",
        "average_upper_bound",
        "maker",
        "breaker",
        "iterations",
        "stopped",
        "seconds",
    }
    value = Fraction(data["average_fraction"])
    assert data["rules"] == "p2c3r" and data["proven"] and data["average"] == round(float(value), 6)
    assert data["average_lower_bound"] <= data["average"] <= data["average_upper_bound"]
    assert data["stopped"] is None
    assert sum(Fraction(m["probability_fraction"]) for m in data["maker"]) == 1
    assert sum(Fraction(b["weight_fraction"]) for b in data["breaker"]) == 1
    assert [m["pattern"] for m in data["maker"]] == ["aa", "ab"]
    assert all(len(b["first_guess"]) == 2 for b in data["breaker"])


def test_text_output_and_json_agree(capsys):
    assert main(["game-value", "--rules", "p3c2", "--solver", "search"]) == 0
    text = capsys.readouterr().out
    assert main(["game-value", "-r", "p3c2", "--solver", "search", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert f"{data['average_fraction']} = " in text
    # the uniform secret's total over the codes, and the fraction --json gives (206/64 beside
    # 103/32 read as two values)
    uniform = next(line for line in text.splitlines() if line.startswith("uniformly random secret"))
    assert f": {data['uniform_total']}/{data['codes']} = " in uniform
    assert f"{data['uniform_average_fraction']} = {data['uniform_average']:.6f}" in uniform
    assert "aab" in text and "first guess" in text and "best replies" in text


def test_default_solver(capsys):
    assert main(["game-value", "-r", "p2c2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["rules"] == "p2c2r" and float(Fraction(data["average_fraction"])) == data["average"]
    # every fraction in one form, a whole number too, as results/ writes them ("2" and "2/1"
    # for one value: a new user's trial)
    fractions = [data[k] for k in data if k.endswith("_fraction") and data[k] is not None]
    fractions += [m[k] for m in data["maker"] for k in m if k.endswith("_fraction")]
    assert len(fractions) > 3 and all(re.fullmatch(r"[0-9]+/[1-9][0-9]*", f) for f in fractions)


def test_bad_input_is_one_line_and_exit_2(capsys):
    for argv in (
        ["game-value", "p2c2"],  # the game is --rules, as everywhere
        ["game-value", "-r", "p9"],
        ["game-value", "--solver", "magic"],
        ["game-value", "-r", "p2c2", "--rules", "p3c3"],
        ["game-value", "--max-iterations", "1"],
        ["game-value", "-r", "p9c9", "--memory-limit", "0.001"],
    ):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.startswith("error: ") and err.count("\n") == 1, (argv, err)


def test_a_value_not_proven_is_never_given_as_the_value(capsys):
    """--max-iterations 2 gave "value": 3.25 (the upper bound) with "proven": false and no
    "stopped"; the headline gave one bound as a fraction and the other as a decimal."""
    assert main(["game-value", "-r", "p4c5", "--max-iterations", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["proven"] is False and data["stopped"] == "iteration limit"
    assert data["average"] is None and data["average_fraction"] is None
    low, high = Fraction(data["average_lower_bound_fraction"]), Fraction(data["average_upper_bound_fraction"])
    assert (low, high) == (Fraction(2463, 625), Fraction(79, 20))
    assert data["average_lower_bound"] <= low and data["average_upper_bound"] >= high  # rounded outwards
    assert main(["game-value", "-r", "p4c5", "--max-iterations", "2"]) == 0
    headline = capsys.readouterr().out.splitlines()[0]
    assert "between 2463/625 = 3.940800 and 79/20 = 3.950000" in headline and "not proven" in headline


def test_probabilities_and_weights_are_rounded_as_every_float_is(capsys):
    """A maker's probability printed 0.11764705882352941 where other floats have 6 places (a
    new user's trial); the fraction beside it stays exact. 3x3 has thirds and ninths."""
    assert main(["game-value", "-r", "p3c3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    pairs = [(m["probability"], m["probability_fraction"]) for m in data["maker"]]
    pairs += [(b["weight"], b["weight_fraction"]) for b in data["breaker"]]
    assert any(float(Fraction(f)) != x for x, f in pairs)  # (some were rounded: else no test)
    for value, fraction in pairs:
        assert value == round(float(Fraction(fraction)), 6)


def test_the_trees_left_out_of_the_breakers_mix_are_counted(capsys):
    """The text said "3 trees in the final LP" above a mix of 2 (a new user's trial)."""
    import re

    assert main(["game-value", "-r", "p2c3"]) == 0
    text = capsys.readouterr().out
    assert main(["game-value", "-r", "p2c3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    m = re.search(r"(\d+) trees in the final LP(?: \((\d+) at weight 0, not in the mix\))?", text)
    assert m is not None, text
    assert int(m.group(1)) - int(m.group(2) or 0) == len(data["breaker"])
    assert data["uniform_average_fraction"] == str(Fraction(data["uniform_total"], data["codes"]))


def test_proof_written_and_verified(capsys, tmp_path, validators):
    """game-value --proof writes the certificate of both mixes; verify proves the value
    (text and JSON in the vocabulary of game-value's own keys)."""
    path = tmp_path / "p3c4.gv.proof.json.gz"
    assert main(["game-value", "-r", "p3c4", "--proof", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    validators["game-value"].validate(data)
    value = Fraction(data["average_fraction"])
    assert data["proof"]["file"] == str(path) and data["proof"]["facts"] > 0
    assert main(["verify", str(path)]) == 0
    text = capsys.readouterr().out
    assert f"game value {value} = {float(value):.6f} is proven: the maker's mix" in text
    assert "and the breaker's mix at most that against every secret" in text
    assert main(["verify", str(path), "--json"]) == 0
    checked = json.loads(capsys.readouterr().out)
    validators["verify"].validate(checked)
    assert checked["valid"] and checked["total"] == data["proof"]["total"]
    # (the total is over the maker's weights, not the secrets: it gave 5600 beside 1296)
    assert Fraction(checked["total"], checked["weight_sum"]) == value and checked["secrets"] == 64
    assert (
        checked["average_fraction"],
        checked["average_lower_bound_fraction"],
        checked["average_upper_bound_fraction"],
    ) == (data["average_fraction"],) * 3


def test_proof_failing_is_exit_1_naming_the_fact(capsys, tmp_path, validators):
    import gzip

    path = tmp_path / "p3c4.gv.proof.json.gz"
    assert main(["game-value", "-r", "p3c4", "--proof", str(path)]) == 0
    capsys.readouterr()
    data = json.loads(gzip.decompress(path.read_bytes()))
    root = next(i for i, f in enumerate(data["facts"]) if not f["path"])
    data["facts"][root]["total"] += 1
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    assert main(["verify", str(bad)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"error: {bad} is not a valid proof: fact {root} (path []; claims total >= ")
    assert main(["verify", str(bad), "--json"]) == 1
    result = json.loads(capsys.readouterr().out)
    validators["verify"].validate(result)
    assert result["average_lower_bound_fraction"] is None and result["errors"][0].startswith(f"fact {root} ")


def test_proof_to_standard_output_and_bad_paths(capsys, tmp_path):
    assert main(["game-value", "-r", "p2c3", "--proof", "-"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["version"] == 2 and "wrote the proof (weighted total " in err
    for args in (["--proof", "-", "--json"], ["--proof", str(tmp_path / "missing" / "a.json.gz")]):
        assert main(["game-value", "-r", "p2c3", *args]) == 2
        out, err = capsys.readouterr()
        assert out == "" and err.count("\n") == 1 and "--proof" in err
    proof = tmp_path / "x.json.gz"
    assert main(["game-value", "-r", "p4c6", "--max-iterations", "2", "--proof", str(proof)]) == 0
    assert "nothing written" in capsys.readouterr().err and not proof.exists()


def test_a_proof_to_standard_output_by_its_device_name_is_the_output_alone():
    # --proof /dev/stdout: the line saying the proof was written went after it, on standard output
    import subprocess
    import sys

    args = ["-m", "mastermind", "game-value", "-r", "p2c2", "--proof", "/dev/stdout"]
    proc = subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["version"] == 2 and proc.stdout.endswith("}\n")
    assert "wrote the proof (weighted total " in proc.stderr


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full on this system")
def test_a_proof_that_cannot_be_written_says_so_once(capsys):
    # the disk full as it is written: one line (it said also that "the proof stopped (None)")
    assert main(["game-value", "-r", "p2c3", "--proof", "/dev/full"]) == 2
    err = capsys.readouterr().err
    assert (
        err.count("\n") == 1
        and err.startswith("error: --proof: cannot write /dev/full")
        and "None" not in err
    )
