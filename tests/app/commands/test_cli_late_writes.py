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
