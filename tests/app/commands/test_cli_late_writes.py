"""An output that turns out unwritable only once the work is done (a full disk, a file size
limit) keeps the report of that work: the report, then one line naming the option and why,
exit code 2, and any file already there left as it was. A new user's trial under ``ulimit
-f`` got the error line alone: the proven optimum was never shown, and ``--json`` printed
nothing."""

from __future__ import annotations

import errno
import json
import os

import pytest

from mastermind.app.cli import main


@pytest.fixture
def full_disk(monkeypatch):
    """Every file written from now on fails at its last step, as on a full disk."""

    def no_space(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", no_space)


def _run(capsys, args: list[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def _one_error_line(err: str, option: str, path) -> None:
    lines = [line for line in err.splitlines() if line.startswith("error:")]
    assert lines == [
        f"error: {option}: cannot write {path}: {os.strerror(errno.ENOSPC)}; nothing written, "
        "a file already there is left as it was"
    ], err


@pytest.mark.parametrize("json_output", [False, True])
def test_optimal_reports_the_optimum_it_could_not_write(tmp_path, capsys, full_disk, json_output):
    target = tmp_path / "tree.json"
    target.write_text("old\n")
    args = ["optimal", "-r", "p3c4", "-j", "1", "--no-cache", "--out", str(target)]
    code, out, err = _run(capsys, args + ["--json"] * json_output)
    assert code == 2
    _one_error_line(err, "--out", target)
    if json_output:
        data = json.loads(out)
        assert data["proven"] and data["total"] == 206 and data["out"] is None
    else:
        assert "total        206 over 64 secrets" in out and "wrote" not in out + err
    assert target.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["tree.json"]  # (no temporary file left)


@pytest.mark.parametrize("json_output", [False, True])
def test_export_reports_the_tree_it_could_not_write(tmp_path, capsys, full_disk, json_output):
    target = tmp_path / "tree.txt.gz"
    code, out, err = _run(
        capsys, ["export", "-r", "p3c4", "-s", "minimax", "--out", str(target)] + ["--json"] * json_output
    )
    assert code == 2
    _one_error_line(err, "--out", target)
    if json_output:
        data = json.loads(out)
        assert data["out"] is None and data["secrets"] == 64 and data["total"] > 206
    else:
        assert out.startswith("the irving tree of minimax for p3c4r (total ") and "wrote" not in out
    assert not target.exists()


def test_compare_keeps_its_table_when_the_plot_cannot_be_written(tmp_path, capsys, full_disk):
    pytest.importorskip("matplotlib", reason="matplotlib (extra: plot) is not installed")
    target = tmp_path / "h.png"
    code, out, err = _run(capsys, ["compare", "-r", "p2c3", "-s", "minimax", "--plot", str(target)])
    assert code == 2
    _one_error_line(err, "--plot", target)
    assert "minimax" in out and "optimal total" in out and "nothing written to" not in out
    code, out, err = _run(capsys, ["compare", "-r", "p2c3", "-s", "minimax", "--plot", str(target), "--json"])
    assert code == 2 and json.loads(out)["plot"] is None
    assert not target.exists()


def test_plot_gives_its_numbers_when_the_picture_cannot_be_written(tmp_path, capsys, full_disk):
    pytest.importorskip("matplotlib", reason="matplotlib (extra: plot) is not installed")
    target = tmp_path / "h.svg"
    code, out, err = _run(capsys, ["plot", "-r", "p2c3", "-s", "minimax", "--out", str(target), "--json"])
    assert code == 2
    _one_error_line(err, "--out", target)
    data = json.loads(out)
    assert data["out"] is None and data["drawn"] == []
    assert not target.exists()


@pytest.fixture
def disk_full_after_first_row(monkeypatch, tmp_path):
    """Files written fail at their last step once the first row of the optimal table is in
    place (its markdown there), as on a disk that fills between two rows."""
    real_fsync = os.fsync
    markdown = tmp_path / "res" / "optimal.md"

    def no_space_after(fd: int) -> None:
        if markdown.exists():
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", no_space_after)
    return tmp_path / "res"


@pytest.mark.parametrize("json_output", [False, True])
def test_results_reports_the_row_it_could_not_write(
    capsys, disk_full_after_first_row, json_output, validators
):
    """The second row's files fail: the first row stays written, the second is reported
    (its line, or its row under ``unwritten``) and not half written: its tree, the JSON and
    the markdown all left as the first row left them."""
    out = disk_full_after_first_row
    args = ["results", "--out", str(out), "--table", "optimal", "--games", "p2c2,p2c3", "-j", "1"]
    code, stdout, err = _run(capsys, args + ["--json"] * json_output)
    assert code == 2
    errors = [line for line in err.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and errors[0].startswith("error: --out: cannot write "), err
    assert errors[0].endswith(
        f"{os.strerror(errno.ENOSPC)}; the row of p2c3 was not written, the files are left as they were"
    )
    rows = json.loads((out / "optimal.json").read_text())["rows"]
    assert [r["game"] for r in rows] == ["p2c2"]
    assert "p2c3" not in (out / "optimal.md").read_text() and "p2c2" in (out / "optimal.md").read_text()
    assert sorted(p.name for p in (out / "trees").iterdir()) == ["p2c2.json.gz"]  # (no temporary file)
    assert sorted(p.name for p in out.iterdir()) == ["optimal.json", "optimal.md", "proofs", "trees"]
    assert sorted(p.name for p in (out / "proofs").iterdir()) == ["p2c2.proof.json.gz"]  # (its row's alone)
    if json_output:
        data = json.loads(stdout)
        validators["results"].validate(data)
        assert [r["game"] for r in data["tables"]["optimal"]] == ["p2c2"]
        assert data["unwritten"]["game"] == "p2c3" and data["unwritten"]["status"] == "proven"
        code, stdout, _ = _run(capsys, ["optimal", "-r", "p2c3", "--no-cache", "--json"])
        assert code == 0 and data["unwritten"]["total"] == json.loads(stdout)["total"]
    else:
        lines = stdout.splitlines()
        assert any(line.startswith("p2c2") for line in lines), stdout
        assert any(line.startswith("p2c3") and line.endswith("(not written)") for line in lines), stdout
