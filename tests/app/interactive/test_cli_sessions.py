"""``mastermind assist`` and ``mastermind play`` driven through standard input."""

import json
import signal
import subprocess
import sys

import pytest

from mastermind.app.interactive.codemaker import pick_secret
from mastermind.core.game import Rules

KNUTH_ANSWERS = "\n1B0W\n\n0B1W\n\n1B2W\n\n1B1W\n\n4B0W\n"  # Enter, feedback: the 3632 game


def test_assist_full_game(cli):
    code, out, err = cli(["assist"], KNUTH_ANSWERS)
    assert code == 0 and "Traceback" not in err
    lines = out.splitlines()
    assert lines[1] == "Turn 1 - 1296 candidates - suggested guess: 1122"
    headers = [line for line in lines if line.startswith("Turn ")]
    assert headers[1:] == [
        "Turn 2 - 256 candidates - suggested guess: 1344",
        "Turn 3 - 44 candidates - suggested guess: 3526",
        "Turn 4 - 7 candidates - suggested guess: 1462",
        "Turn 5 - 1 candidate - suggested guess: 3632",
    ]
    assert "Solved: the secret is 3632, found in 5 guesses." in lines
    assert lines[-6:] == [
        "turn  guess  feedback  left",
        "   1  1122   1B0W       256",
        "   2  1344   0B1W        44",
        "   3  3526   1B2W         7",
        "   4  1462   1B1W         1",
        "   5  3632   4B0W         0",
    ]


def test_assist_undo_inconsistent_impossible_list_why(cli):
    text = (
        "1B0W\n"  # feedback typed straight away for 1122
        "1344\n0B1W\n"  # the guess typed, then its feedback
        "list\n3B1W\n"  # impossible: refused at once
        "1111\n4B0W\n"  # contradicts: 1111 cannot be the secret
        "undo\nundo\n"  # the guess, then turn 2
        "why\n\n1B2W\nquit\n"
    )
    code, out, err = cli(["assist"], text)
    assert code == 0 and err == ""
    assert "44 candidates:\n3523 3525" in out
    assert "impossible feedback 3B1W: 3 black and 1 white never occurs" in out
    assert "4B0W to 1111 contradicts 0B1W to 1344 (turn 2)" in out
    assert "Guess 1344 (0B1W) taken back.\nTurn 2 - 256 candidates" in out
    assert "how 1344 splits the candidates:" in out and "1B2W       21" in out
    assert out.rstrip().endswith("   2  1344   1B2W        21")


def test_assist_end_of_input_and_json(cli):
    code, out, err = cli(["assist", "--strategy", "expected-size"], "\n1B1W\n")
    assert code == 0 and "Stopped after 1 guess" in out and "Traceback" not in err
    code, out, err = cli(["assist", "--json", "--rules", "p3c3"], "\n0B0W\n\n3B0W\n")
    data = json.loads(out)  # standard output holds the record only
    assert code == 0 and data["solved"] and data["secret"] == "333" and data["guesses"] == 2
    assert (data["pool"], data["tie_break"]) == ("all", "default")  # (as solve and simulate say them)
    assert "Turn 1 - 27 candidates" in err


def test_a_guess_of_your_own_off_a_strategy_files_tree_goes_on_by_a_heuristic(cli, data_dir):
    """assist -s FILE ended the session (exit 2, the message twice) at a guess the file's tree
    does not play; -s optimal re-solves, a file now hands over to the off-tree heuristic."""
    from mastermind.app.players import OFF_TREE
    from mastermind.core.game import CodeTable
    from mastermind.engines.registry import make_strategy

    knuth = str(data_dir / "p4c6r-knuth.txt")
    code, out, err = cli(["assist", "-s", knuth, "--json"], "6543\n0B1W\n\n1B0W\nquit\n")
    assert code == 0 and "Traceback" not in err and "error" not in err
    table = CodeTable(Rules(4, 6))
    heuristic = make_strategy(OFF_TREE, table)
    guess = table.rules.parse_code("6543")
    answer = 1  # (0B1W: no black, one white)
    after = table.all_codes[table.answer_indices(guess, table.all_codes) == answer]
    expected = table.rules.code_text(heuristic.next_guess(after, ((guess, answer),)))
    by = f"(by {OFF_TREE}: the game left the tree of {knuth})"
    assert f"Turn 2 - {len(after)} candidates - suggested guess: {expected} {by}" in err
    assert [t["guess"] for t in json.loads(out)["turns"]] == ["6543", expected]
    # a file's tree plays as it is written: no pool, no tie-break (solve said "all", "default")
    assert (json.loads(out)["pool"], json.loads(out)["tie_break"]) == (None, None)
    code, out, err = cli(["solve", "-s", knuth, "3632", "--json"], "")
    assert code == 0 and (json.loads(out)["pool"], json.loads(out)["tie_break"]) == (None, None)
    code, out, err = cli(["play", "-s", knuth, "--seed", "1"], "6543\nhint\nquit\n")
    assert code == 0 and f"strategy {OFF_TREE}: the game left the tree of {knuth})" in out


def test_play_game_with_invalid_guess_hint_and_win(cli):
    r = Rules(4, 6)
    secret = r.code_text(pick_secret(r, 11))
    wrong = "1111" if secret != "1111" else "2222"
    code, out, err = cli(["play", "--seed", "11"], f"{wrong}\n99\nhint\n{secret}\n")
    assert code == 0 and err == ""
    assert "guess 2> 99\ncode '99' has 2 pegs" in out
    assert "guess 2> hint\nhint: " in out
    assert f"guess 2> {secret}\n4B0W - solved in 2 guesses." in out


def test_play_give_up_and_json(cli):
    r = Rules(3, 5, repeat=False)
    code, out, err = cli(["play", "--seed", "4", "--rules", "p3c5n", "--json"], "give up\n")
    data = json.loads(out)
    assert code == 0 and data["gave_up"] and data["secret"] == r.code_text(pick_secret(r, 4))
    assert (data["strategy"], data["pool"], data["tie_break"]) == ("minimax", "all", "default")  # (hint's)
    assert "The secret was" in err


@pytest.mark.parametrize(
    "argv, moves, stopped",
    [
        (["play", "--seed", "4", "--rules", "p3c5n"], "hint\n", "end of input"),
        (["play", "--seed", "4", "--rules", "p3c5n"], "hint\nquit\n", "quit"),
        (["assist", "--rules", "p3c3"], "\n0B0W\n Quit \n", "quit"),
        (["play", "--seed", "4", "--rules", "p3c5n"], "give up\n", None),
        (["assist", "--rules", "p3c3"], "\n0B0W\n", "end of input"),
        (["assist", "--rules", "p3c3"], "\n0B0W\n\n3B0W\n", None),
    ],
)
def test_a_session_says_whether_its_input_ended_before_the_game(cli, argv, moves, stopped):
    """A game left unfinished when its moves ran out, or when its player typed quit, said
    "stopped": null, as a game won or given up (new users' trials)."""
    code, out, err = cli([*argv, "--json"], moves)
    assert code == 0 and json.loads(out)["stopped"] == stopped


def test_play_without_seed_tells_the_seed(cli):
    code, out, _ = cli(["play"], "quit\n")
    assert code == 0 and "replay this secret with --seed" in out


@pytest.mark.parametrize("argv", [["-s", "random"], ["-s", "minimax", "--tie-break", "random"]])
def test_assist_tells_a_seed_drawn_and_the_seed_replays_the_session(cli, argv):
    """`assist -s random` drew a seed and said it only in --json: a session in text could not
    be replayed."""
    import re

    code, out, _ = cli(["assist", *argv], "\n0B0W\n")
    seed = re.search(r" \(seed (\d+) drawn: --seed \1 repeats this run\)\. Type help", out.splitlines()[0])
    assert code == 0 and seed is not None
    turns = [line for line in out.splitlines() if line.startswith("Turn ")]
    code, again, _ = cli(["assist", *argv, "--seed", seed.group(1)], "\n0B0W\n")
    assert code == 0 and [line for line in again.splitlines() if line.startswith("Turn ")] == turns
    assert "drawn" not in again  # (a seed given is not news)


def test_assist_says_no_seed_where_nothing_is_drawn(cli):
    code, out, _ = cli(["assist", "-r", "p3c3"], "quit\n")
    assert code == 0 and "seed" not in out


def test_play_knows_list_and_why_and_assist_history(cli):
    """`list` typed in play was a bad code: "code 'list': colour 'l' is not one of 1-6"."""
    code, out, err = cli(["play", "-r", "p3c3", "--seed", "2"], "list\nwhy\nlsit\nquit\n")
    assert code == 0 and err == "" and "colour 'l'" not in out
    assert "guess 1> list\n27 candidates:\n111 112" in out and "guess 1> why\nhow 112 splits" in out
    assert "guess 1> lsit\n'lsit' is not a command; the commands: hint, why, list, history," in out
    code, out, err = cli(["assist", "-r", "p3c3"], "\n0B0W\nhistory\nquit\n")
    assert code == 0 and "> history\nturn  guess  feedback  left\n   1  112    0B0W         1" in out


@pytest.mark.parametrize(
    "args, message",
    [
        (["assist", "--strategy", "clever"], "--strategy: unknown value 'clever'"),
        (["play", "--seed", "-1"], "--seed: must be at least 0, got -1"),
        (["play", "--pool", "some"], "--pool: unknown value 'some'"),
        (["assist", "--rules", "p4c3n"], "colours must be at least pegs"),
    ],
)
def test_bad_options(cli, args, message):
    code, out, err = cli(args, "")
    assert code == 2 and message in err and err.count("\n") == 1


def mastermind(*args):
    return subprocess.Popen(
        [sys.executable, "-m", "mastermind.app.cli", *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.mark.integration
def test_real_process_pipe_ctrl_d_and_ctrl_c():
    # Ctrl-D: the pipe closes mid-game
    proc = mastermind("assist")
    out, err = proc.communicate("\n1B0W\n", timeout=120)
    assert proc.returncode == 0 and "Traceback" not in err and "Stopped after 1 guess" in out
    # Ctrl-C while waiting for a line
    proc = mastermind("play", "--seed", "1")
    assert proc.stdout.readline().startswith("I have picked a secret code")
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and "Traceback" not in err and "interrupted" in err
    assert "Stopped after 0 guesses; replay this secret with --seed 1." in out
    # with --json, the game so far as its one object, marked stopped (there was none)
    proc = mastermind("assist", "--json")
    proc.stdin.write("\n1B0W\n")
    proc.stdin.flush()
    while "Turn 2" not in proc.stderr.readline():
        pass
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    data = json.loads(out)
    assert proc.returncode == 130 and data["stopped"] == "interrupted" and data["guesses"] == 1


def test_a_random_hint_is_no_give_away(cli):
    """`play -s random`: the first hint was the secret, for every seed tried (the secret and
    the strategy drew from one random stream)."""
    import re

    same = 0
    for seed in range(20):
        code, out, err = cli(["play", "-s", "random", "--seed", str(seed), "--json"], "hint\ngive up\n")
        hint = re.search(r"hint: (\d{4}) ", err).group(1)
        secret = json.loads(out)["secret"]
        assert code == 0 and len(secret) == 4
        same += hint == secret
    assert same <= 1  # independent streams: 1 chance in 1296 per seed (it was 20 of 20)
