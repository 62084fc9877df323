import json
from fractions import Fraction

from mastermind.app.cli import main


def test_json_output(capsys):
    assert main(["game-value", "p2c3", "--solver", "search", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) >= {
        "rules",
        "value_numerator",
        "value_denominator",
        "value",
        "maker",
        "breaker",
        "iterations",
        "seconds",
    }
    value = Fraction(data["value_numerator"], data["value_denominator"])
    assert data["rules"] == "p2c3r" and data["value"] == float(value)
    assert sum(Fraction(m["probability_fraction"]) for m in data["maker"]) == 1
    assert sum(Fraction(b["weight_fraction"]) for b in data["breaker"]) == 1
    assert [m["pattern"] for m in data["maker"]] == ["aa", "ab"]
    assert all(len(b["first_guess"]) == 2 for b in data["breaker"])


def test_text_output_and_rules_option_agree(capsys):
    assert main(["game-value", "--rules", "p3c2", "--solver", "search"]) == 0
    text = capsys.readouterr().out
    assert main(["game-value", "p3c2", "--solver", "search", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert f"{data['value_numerator']}/{data['value_denominator']}" in text
    assert "aab" in text and "first guess" in text and "best replies" in text


def test_default_solver(capsys):
    assert main(["game-value", "-p", "2", "-c", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["rules"] == "p2c2r" and data["value_numerator"] / data["value_denominator"] == data["value"]


def test_bad_input_is_one_line_and_exit_2(capsys):
    for argv in (
        ["game-value", "p9"],
        ["game-value", "p2c2", "--solver", "magic"],
        ["game-value", "p2c2", "--rules", "p3c3"],
        ["game-value", "p2c2", "--max-iterations", "1"],
        ["game-value", "p9c9", "--memory-limit", "0.001"],
    ):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.startswith("error: ") and err.count("\n") == 1, (argv, err)


def test_a_value_not_proven_is_shown_as_the_interval(capsys):
    # the iteration limit: the headline gave the upper bound as "the game value"
    assert main(["game-value", "p4c5", "--max-iterations", "2"]) == 0
    headline = capsys.readouterr().out.splitlines()[0]
    assert "between 3.940800 and 79/20 = 3.950000" in headline and "NOT proven" in headline
