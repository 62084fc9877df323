"""The result cache: a repeated command answers from disk, and only with the right answer."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mastermind.app import resultcache
from mastermind.app.cli import COMMANDS, build_app, main, modules_for
from mastermind.app.resultcache import ResultCache


def run_json(argv, capsys):
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 0, err
    return json.loads(out)


def entries(kind: str) -> list[Path]:
    return sorted((resultcache.default_folder()).glob(f"{kind}-*.json"))


def test_a_repeated_optimum_is_the_stored_one(capsys):
    first = run_json(["optimal", "-r", "p3c3", "--json"], capsys)
    again = run_json(["optimal", "-r", "p3c3", "--json"], capsys)
    assert first.pop("cached") is False and again.pop("cached") is True
    assert again == {k: v for k, v in first.items() if k != "compile_seconds"}  # seconds: the search's own
    assert list(again) == [k for k in first if k != "compile_seconds"]  # in the same order
    assert first["total"] == 73
    assert len(entries("optimal")) == 1


def test_a_repeated_heuristics_table_is_the_stored_one(capsys):
    first = run_json(["heuristics", "-r", "p3c3", "--json"], capsys)
    again = run_json(["heuristics", "-r", "p3c3", "--json"], capsys)
    assert first.pop("cached") is False and again.pop("cached") is True
    assert json.dumps(again) == json.dumps(first)  # the same rows, keys in the same order
    # without --seed the seed is any seed: the one the stored answer was computed with
    assert again["seed"] == first["seed"]


@pytest.mark.parametrize("command", ["optimal", "heuristics"])
def test_a_memory_limit_too_small_is_refused_whatever_the_cache_holds(capsys, command):
    """A stored answer came before the memory limit's check: the same command exited 0 with
    a cached answer and 2 without one (a new user's trial)."""
    run_json([command, "-r", "p3c3", "--json"], capsys)  # (now stored)
    assert run_json([command, "-r", "p3c3", "--json"], capsys)["cached"] is True
    code = main([command, "-r", "p3c3", "--json", "--memory-limit", "0.00000001"])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and "above the memory limit" in err


def test_a_memory_limit_too_small_for_the_search_is_refused_whatever_the_cache_holds(capsys):
    """The table fits in 0.1 GiB but the search does not: answered from the cache (exit 0)
    and refused without it (exit 2), the same command (a new user's trial)."""
    run_json(["optimal", "-r", "p3c4", "--json"], capsys)  # (now stored)
    for extra in ([], ["--no-cache"]):
        code = main(["optimal", "-r", "p3c4", "--json", "--memory-limit", "0.1", *extra])
        out, err = capsys.readouterr()
        assert code == 2 and out == "" and "the exact search of p3c4r needs at least" in err, err


@pytest.mark.parametrize(
    "options",
    [
        ["--objective", "worst"],
        ["--max-guesses", "5"],
        ["--pool", "consistent"],
        ["--first", "123"],
        ["--tie-break", "worst"],
        ["--by-first-guess"],
    ],
)
def test_every_option_that_changes_the_optimum_is_in_the_key(options, capsys):
    run_json(["optimal", "-r", "p3c3", "--json"], capsys)
    other = run_json(["optimal", "-r", "p3c3", "--json", *options], capsys)
    assert other["cached"] is False
    assert len(entries("optimal")) == 2
    assert run_json(["optimal", "-r", "p3c3", "--json", *options], capsys)["cached"] is True  # now stored


@pytest.mark.parametrize(
    "options", [["--jobs", "1"], ["-j", "2"], ["--memory-limit", "1"], ["--time-limit", "60"]]
)
def test_options_that_do_not_change_the_answer_share_its_entry(options, capsys):
    """--jobs and --memory-limit split the cache although they do not change the answer."""
    run_json(["optimal", "-r", "p3c3", "--json"], capsys)
    assert run_json(["optimal", "-r", "p3c3", "--json", *options], capsys)["cached"] is True
    if options[0] in ("--memory-limit", "--time-limit"):  # (heuristics has no --jobs: it runs on one thread)
        run_json(["heuristics", "-r", "p3c3", "--json"], capsys)
        assert run_json(["heuristics", "-r", "p3c3", "--json", *options], capsys)["cached"] is True
        assert len(entries("heuristics")) == 1
    assert len(entries("optimal")) == 1


def test_an_edited_entry_is_not_served(capsys):
    """An entry edited to "total": 999 was served as the answer: entries carry a checksum, as
    the checkpoints do."""
    run_json(["optimal", "-r", "p3c3", "--json"], capsys)
    (path,) = entries("optimal")
    stored = json.loads(path.read_text())
    stored["answer"]["total"] = 999
    path.write_text(json.dumps(stored))
    again = run_json(["optimal", "-r", "p3c3", "--json"], capsys)
    assert again["cached"] is False and again["total"] == 73
    assert run_json(["optimal", "-r", "p3c3", "--json"], capsys)["cached"] is True  # stored again


def test_the_text_report_is_served_from_the_cache_too(capsys, monkeypatch):
    """Text `optimal` never used the cache (4.6 s on p4c7 every time, 0.09 s with --json)."""
    from mastermind.app.commands import exact

    assert main(["optimal", "-r", "p3c3"]) == 0
    first = capsys.readouterr().out

    def no_search(*args, **kwargs):
        raise AssertionError("searched again")

    monkeypatch.setattr(exact, "_search", no_search)
    assert main(["optimal", "-r", "p3c3"]) == 0
    again = capsys.readouterr().out
    assert "from the result cache" in again and "total        73 over 27 secrets" in again
    assert first.splitlines()[:5] == again.splitlines()[:5]
    assert main(["heuristics", "-r", "p3c3", "--seed", "1"]) == 0
    table = capsys.readouterr().out
    assert main(["heuristics", "-r", "p3c3", "--seed", "1"]) == 0
    assert capsys.readouterr().out == table


def test_other_rules_seeds_and_strategies_are_other_entries(capsys):
    run_json(["heuristics", "-r", "p3c3", "--json"], capsys)
    for argv in (
        ["-r", "p3c4"],
        ["-r", "p3c3n"],
        ["-r", "p3c3", "--seed", "7"],
        ["-r", "p3c3", "-s", "simple"],
    ):
        assert run_json(["heuristics", *argv, "--json"], capsys)["cached"] is False, argv


def test_the_key_holds_the_version_and_the_source(tmp_path, monkeypatch):
    cache = ResultCache(tmp_path)
    cache.entry("optimal", "p2c2r", {}).store({"total": 5})
    assert cache.entry("optimal", "p2c2r", {}).load() == {"total": 5, "cached": True}
    monkeypatch.setattr(resultcache, "package_version", lambda: "99.0")
    assert cache.entry("optimal", "p2c2r", {}).load() is None
    monkeypatch.undo()
    monkeypatch.setattr(resultcache, "source_digest", lambda: "0" * 64)
    assert cache.entry("optimal", "p2c2r", {}).load() is None


def test_the_source_digest_follows_the_code():
    digest = resultcache.source_digest()
    assert len(digest) == 64 and digest == resultcache.source_digest()
    root = Path(resultcache.__file__).resolve().parents[1]
    assert any(p.name == "_dfs.py" for p in root.rglob("*.py"))  # the kernels are among the files hashed


@pytest.mark.parametrize(
    "damage",
    [
        b"",
        b"{not json",
        b"\xff\xfe binary",
        b"[]",
        json.dumps({"key": {"other": 1}, "answer": {"total": 1}}).encode(),
        None,  # the right key, the answer missing
    ],
)
def test_a_damaged_entry_is_ignored_and_computed_again(damage, capsys):
    good = run_json(["optimal", "-r", "p3c3", "--json"], capsys)
    (path,) = entries("optimal")
    if damage is None:
        stored = json.loads(path.read_text())
        damage = json.dumps({"key": stored["key"]}).encode()
    path.write_bytes(damage)
    again = run_json(["optimal", "-r", "p3c3", "--json"], capsys)
    assert again["cached"] is False and again["total"] == good["total"] == 73
    assert json.loads(path.read_text())["answer"]["total"] == 73  # stored again, whole
    assert run_json(["optimal", "-r", "p3c3", "--json"], capsys)["cached"] is True


def test_entries_are_written_atomically(tmp_path, monkeypatch):
    """Through the project's atomic writer: a write that fails leaves the old entry whole
    and no partial file beside it."""
    cache = ResultCache(tmp_path)
    entry = cache.entry("heuristics", "p2c2r", {"seed": 0})
    entry.store([{"total": 1}])

    def broken_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    entry.store([{"total": 2}])  # no error: the answer is only not kept
    monkeypatch.undo()
    assert entry.load() == [{"total": 1, "cached": True}]
    assert sorted(p.name for p in tmp_path.iterdir()) == [entry.path.name]


def test_an_unwritable_cache_is_no_error(tmp_path, monkeypatch, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))  # mastermind/ cannot be made under a file
    assert run_json(["optimal", "-r", "p2c3", "--json"], capsys)["total"] == 21
    assert run_json(["optimal", "-r", "p2c3", "--json"], capsys)["cached"] is False


def test_no_cache_neither_reads_nor_writes(capsys):
    run_json(["optimal", "-r", "p3c3", "--json", "--no-cache"], capsys)
    run_json(["heuristics", "-r", "p3c3", "--json", "--no-cache"], capsys)
    assert entries("optimal") == entries("heuristics") == []
    run_json(["optimal", "-r", "p3c3", "--json"], capsys)
    assert run_json(["optimal", "-r", "p3c3", "--json", "--no-cache"], capsys)["cached"] is False


def test_unproven_answers_and_other_backends_are_not_kept(tmp_path, capsys):
    main(["optimal", "-r", "p4c6", "--json", "--time-limit", "0.001"])  # a second of search
    main(["optimal", "-r", "p3c3", "--json", "--checkpoint", str(tmp_path / "units")])
    capsys.readouterr()
    assert entries("optimal") == []


@pytest.mark.integration
def test_a_cached_answer_loads_no_numba(tmp_path):
    """The point of the cache: the second run starts no compiler (a fresh process)."""
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    probe = (
        "import sys; from mastermind.app.cli import main; code = main(sys.argv[1:]); "
        "print('numba' in sys.modules, 'numpy' in sys.modules, file=sys.stderr); sys.exit(code)"
    )
    loaded = []
    for _ in range(2):
        done = subprocess.run(
            [sys.executable, "-c", probe, "heuristics", "-r", "p2c3", "--json"],
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert done.returncode == 0, done.stderr
        loaded.append(done.stderr.split())
    assert loaded == [["True", "True"], ["False", "False"]]


def test_each_command_loads_only_its_module():
    group = build_app()
    registered = [c.name for c in group.registered_commands]
    assert registered == [name for names in COMMANDS.values() for name in names]
    for module, names in COMMANDS.items():
        assert [c.name for c in build_app((module,)).registered_commands] == list(names)
        assert modules_for([names[0], "--json"]) == (module,)
    assert modules_for(["--version"]) == ()
    assert modules_for([]) == modules_for(["--help"]) == modules_for(["optimla"]) == tuple(COMMANDS)


def test_a_relative_xdg_cache_home_is_ignored(tmp_path, monkeypatch):
    # the XDG specification: a relative path is invalid and should be ignored
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/dir")
    assert resultcache.default_folder() == tmp_path / ".cache" / "mastermind"
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "abs"))
    assert resultcache.default_folder() == tmp_path / "abs" / "mastermind"


# a fresh process runs each command line in turn and says, after each, whether numba is loaded
NUMBA_PROBE = (
    "import json, sys; from mastermind.app.cli import main\n"
    "for argv in json.loads(sys.argv[1]):\n"
    "    code = main(argv)\n"
    "    print(json.dumps([code, 'numba' in sys.modules]), file=sys.stderr, flush=True)\n"
    "    assert 'numba' not in sys.modules, argv  # (what follows would not tell)\n"
)


def numba_probe(argvs: list[list[str]]) -> list[list]:
    """[exit code, numba loaded] after each command line of ``argvs``, in one fresh process
    (sharing this test's result cache); the lines it stopped at, once numba was loaded."""
    done = subprocess.run(
        [sys.executable, "-c", NUMBA_PROBE, json.dumps(argvs)], capture_output=True, text=True, timeout=600
    )
    return [json.loads(line) for line in done.stderr.splitlines() if line.startswith("[")]


@pytest.mark.integration
def test_a_cached_optimum_and_refused_options_load_no_numba(tmp_path, capsys):
    """A cached `optimal -r p4c7` took 2.0 s where --version takes 0.2 s: the memory check
    before the cache lookup imported the exact engine's package, hence the search and numba
    (a second of imports); a refused option (`--first 1123 --by-first-guess`) took 1.8 s.
    The cache lookup and every refusal of the options now come before the search is loaded."""
    run_json(["optimal", "-r", "p3c3", "--json"], capsys)  # (fills the cache: numba in this process)
    argvs = [
        ["optimal", "-r", "p3c3", "--json"],
        ["optimal", "-r", "p3c3"],
        ["optimal", "-r", "p3c3", "--out", str(tmp_path / "t.txt")],  # the tree kept beside it
        ["optimal", "-r", "p3c3", "--first", "112", "--by-first-guess"],
        ["optimal", "-r", "p3c3", "--backend", "processes", "--by-first-guess"],
        ["optimal", "-r", "p3c3", "--checkpoint", str(tmp_path / "c"), "--first", "112"],
        ["optimal", "-r", "p3c3", "--checkpoint", str(tmp_path / "t.txt")],  # a file, not a folder
        ["optimal", "-r", "p3c3", "--scheduler", "tcp://127.0.0.1:1", "--backend", "threads"],
        ["optimal", "-r", "p3c3", "--scheduler", "garbage"],
        ["optimal", "-r", "p3c3", "--backend", "dask", "--tie-break", "worst"],
    ]
    assert numba_probe(argvs) == [[0, False]] * 3 + [[2, False]] * 7
    assert (tmp_path / "t.txt").read_text().startswith("27(")


@pytest.mark.integration
def test_a_checkpoint_folder_another_run_holds_or_another_game_made_loads_no_numba(tmp_path, capsys):
    """`optimal --checkpoint DIR` with DIR in use by another run was refused after 2.8-4.1 s,
    one of another game after 1.7-2.0 s (past a --time-limit of 3 s): both were found once
    the search's kernels were loaded. Both are now refused before the game's table."""
    from mastermind.engines.exact.checkpoint import hold_folder

    made = tmp_path / "made"
    assert main(["optimal", "-r", "p3c3", "--checkpoint", str(made), "--no-cache"]) == 0
    capsys.readouterr()
    argvs = [
        ["optimal", "-r", "p3c4", "--checkpoint", str(made), "--no-cache"],  # another game's
        ["optimal", "-r", "p3c3", "--checkpoint", str(made), "--objective", "worst", "--no-cache"],
        ["optimal", "-r", "p3c3", "--checkpoint", str(tmp_path / "held"), "--no-cache"],
    ]
    with hold_folder(tmp_path / "held"):
        assert numba_probe(argvs) == [[2, False]] * 3
    assert main(["optimal", "-r", "p3c3", "--checkpoint", str(tmp_path / "held"), "--no-cache"]) == 0


def test_optimal_out_reads_and_keeps_the_cached_answer(tmp_path, capsys):
    """`optimal --out FILE` neither read the result cache nor kept its answer, so a plain
    `optimal` afterwards searched again. Now it keeps its answer and its tree, and is
    answered (tree included) from the cache, writing the file a search writes."""
    first = tmp_path / "first.json"
    data = run_json(["optimal", "-r", "p3c4", "--out", str(first), "--json"], capsys)
    assert data["cached"] is False and data["out"] == str(first)
    again = run_json(["optimal", "-r", "p3c4", "--json"], capsys)
    assert again["cached"] is True and again["total"] == 206 and again["out"] is None
    for name in ("again.json", "again.txt.gz", "again.html"):
        path = tmp_path / name
        data = run_json(["optimal", "-r", "p3c4", "--out", str(path), "--json"], capsys)
        assert data["cached"] is True and data["out"] == str(path) and data["total"] == 206
        searched = tmp_path / f"searched-{name}"
        assert main(["optimal", "-r", "p3c4", "--no-cache", "--out", str(searched)]) == 0
        capsys.readouterr()
        assert path.read_bytes() == searched.read_bytes() or name.endswith(".gz"), name
    assert (tmp_path / "again.json").read_text() == first.read_text()
    assert main(["verify", str(tmp_path / "again.txt.gz"), "-r", "p3c4"]) == 0
    assert "total      206" in capsys.readouterr().out


def test_optimal_out_without_a_kept_tree_searches_and_keeps_it(capsys, tmp_path):
    """An answer kept without its tree (or a tree entry damaged) is searched again for
    --out, and the tree is kept for the next time."""
    run_json(["optimal", "-r", "p3c3", "--json"], capsys)
    for tree_entry in entries("optimal_tree"):
        tree_entry.write_text("{}")  # damaged: not served
    out = tmp_path / "t.json"
    assert run_json(["optimal", "-r", "p3c3", "--out", str(out), "--json"], capsys)["cached"] is False
    assert json.loads(out.read_text())["stats"]["total"] == 73
    out.unlink()
    assert run_json(["optimal", "-r", "p3c3", "--out", str(out), "--json"], capsys)["cached"] is True
    assert json.loads(out.read_text())["stats"]["total"] == 73
    assert (
        run_json(["optimal", "-r", "p3c3", "--out", str(out), "--json", "--no-cache"], capsys)["cached"]
        is False
    )


@pytest.mark.parametrize("by_first_guess", [True, False])
def test_a_cached_optimum_validates_as_the_searched_one_does(by_first_guess, capsys, validators):
    """A cached answer by first guess said "out": null, a key its schema's branch does not
    have (the cache kept every answer with one)."""
    argv = ["optimal", "-r", "p3c3", "--json", *(["--by-first-guess"] if by_first_guess else [])]
    searched, cached = run_json(argv, capsys), run_json(argv, capsys)
    assert (searched["cached"], cached["cached"]) == (False, True)
    assert set(cached) == set(searched) and ("out" in cached) is not by_first_guess
    validators["optimal"].validate(cached)
