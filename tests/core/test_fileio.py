"""The one atomic writer: modes, symlinks, special files, standard output, refusals."""

import errno
import os
import stat

import pytest

from mastermind.core.errors import MastermindError
from mastermind.core.fileio import check_writable, current_umask, read_text, write_atomic


def mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_new_file_gets_the_usual_mode(tmp_path):
    old = os.umask(0o027)
    try:
        write_atomic(tmp_path / "a.json", "x")
        assert mode(tmp_path / "a.json") == 0o640  # 0666 & ~umask, not mkstemp's 0600
    finally:
        os.umask(old)
    assert current_umask() == old
    write_atomic(tmp_path / "b.json", "y")
    assert mode(tmp_path / "b.json") == 0o666 & ~old


def test_existing_file_keeps_its_mode_and_is_replaced_whole(tmp_path):
    path = tmp_path / "tree.txt"
    path.write_text("old and longer")
    os.chmod(path, 0o604)
    write_atomic(path, "new")
    assert path.read_text() == "new" and mode(path) == 0o604
    assert os.listdir(tmp_path) == ["tree.txt"]  # no temporary file left behind


def test_symlink_stays_a_link_and_its_target_is_written(tmp_path):
    target = tmp_path / "real.json"
    target.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    write_atomic(link, "new")
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_text() == "new"


def test_dangling_symlink_creates_its_target(tmp_path):
    link = tmp_path / "link.json"
    link.symlink_to(tmp_path / "later.json")
    write_atomic(link, "made")
    assert link.is_symlink() and (tmp_path / "later.json").read_text() == "made"


def test_fifo_is_written_in_place(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        write_atomic(fifo, "through the pipe")
        assert os.read(reader, 100) == b"through the pipe"
    finally:
        os.close(reader)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)  # still a FIFO, not a regular file


@pytest.mark.timeout(30)  # (the defect this guards against blocks for ever)
def test_fifo_without_reader_is_refused_at_once(tmp_path):
    """Opened as a plain file, a FIFO nothing reads would hold the command for ever."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(MastermindError, match="cannot write .*pipe: a named pipe that nothing reads"):
        write_atomic(fifo, "lost")
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


@pytest.mark.timeout(30)
def test_a_fifo_that_nothing_reads_is_refused_before_the_work(tmp_path):
    """check_writable let it pass: export computed its tree, then could not write it."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(MastermindError, match=r"cannot write .*pipe: a named pipe that nothing reads$"):
        check_writable(fifo)
    link = tmp_path / "link"  # (through a symlink too)
    link.symlink_to(fifo)
    with pytest.raises(MastermindError, match="a named pipe that nothing reads"):
        check_writable(link)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


@pytest.mark.timeout(30)
def test_a_fifo_read_when_checked_gets_the_whole_data_after_the_work(tmp_path):
    """The check opens the pipe and holds it for the write: closed, it would have told the
    reader that the data had ended, before any came."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        check_writable(fifo)
        check_writable(fifo)  # (twice: still one writer held)
        write_atomic(fifo, "after the work")
        assert os.read(reader, 100) == b"after the work"
        assert os.read(reader, 100) == b""  # (the writer closed: the data ended)
    finally:
        os.close(reader)


def test_a_fifo_held_for_a_write_that_never_came_is_released(tmp_path):
    """Held by the check, then nothing written (a later refusal, a stop): released, its
    reader sees the end of the data at once, not when the process ends."""
    from mastermind.core.fileio import release_held_pipes

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        check_writable(fifo)
        with pytest.raises(BlockingIOError):  # (a writer there, no data yet)
            os.read(reader, 100)
        release_held_pipes()
        assert os.read(reader, 100) == b""  # (no writer: the data ended)
    finally:
        os.close(reader)


@pytest.mark.parametrize("length", [200, 242, 250, 255])
def test_the_longest_names_the_system_allows_are_written(tmp_path, length):
    """The temporary twin of a 242-255-character name was itself too long to make."""
    name = tmp_path / ("b" * (length - 5) + ".json")
    check_writable(name)
    write_atomic(name, "long")
    assert name.read_text() == "long" and os.listdir(tmp_path) == [name.name]
    write_atomic(name, "again")  # over the file, too
    assert name.read_text() == "again"


def test_a_name_too_long_is_refused_before_any_work(tmp_path):
    name = tmp_path / ("a" * 300 + ".json")
    with pytest.raises(MastermindError, match="cannot write .*: File name too long"):
        check_writable(name)


def test_device_is_written_in_place():
    before = os.stat("/dev/null")
    write_atomic("/dev/null", "discarded")
    after = os.stat("/dev/null")
    assert stat.S_ISCHR(after.st_mode) and after.st_rdev == before.st_rdev


def test_a_special_file_that_does_not_open_for_writing_is_refused_before_the_work(tmp_path):
    """`export -o /dev/tty` without a terminal ran its search, then could not write the tree
    (a new user's trial); a socket is such a file on every machine."""
    import socket

    path = tmp_path / "a.sock"
    with socket.socket(socket.AF_UNIX) as listening:
        listening.bind(str(path))
        with pytest.raises(MastermindError, match=r"cannot write .*a\.sock: "):
            check_writable(path)
    check_writable("/dev/null")  # (a device that opens: written in place, after the work)


def test_dev_stdout_symlink_is_not_replaced(capfd):
    if not os.path.islink("/dev/stdout"):
        pytest.skip("/dev/stdout is not a symlink on this system")
    write_atomic("/dev/stdout", "to the terminal\n")
    assert os.path.islink("/dev/stdout")
    assert "to the terminal" in capfd.readouterr().out


def test_dash_is_standard_output(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write_atomic("-", "text\n")
    assert capsys.readouterr().out == "text\n"
    assert not (tmp_path / "-").exists()


def test_bytes_are_written_unchanged(tmp_path):
    write_atomic(tmp_path / "a.png", b"\x89PNG\r\n\x00")
    assert (tmp_path / "a.png").read_bytes() == b"\x89PNG\r\n\x00"


@pytest.mark.parametrize(
    "make, needle",
    [
        (lambda p: p.mkdir(), "directory"),
        (lambda p: (p.write_text("keep"), os.chmod(p, 0o444)), "read-only"),
        (lambda p: None, "does not exist"),
        # (it said "folder .../out does not exist" of a file that exists)
        (lambda p: p.write_text("keep"), "out is a file, not a folder"),
    ],
)
def test_refusals_are_one_line_errors(tmp_path, make, needle):
    path = tmp_path / "out"
    make(path)
    target = path / "x" if needle in ("does not exist", "out is a file, not a folder") else path
    for attempt in (lambda: check_writable(target), lambda: write_atomic(target, "new")):
        with pytest.raises(MastermindError, match=needle) as info:
            attempt()
        assert "\n" not in str(info.value)
    if needle == "read-only":
        assert path.read_text() == "keep" and mode(path) == 0o444


def test_read_text_errors(tmp_path):
    (tmp_path / "bin").write_bytes(b"\xff\xfe\x00\x81")
    for path, needle in (
        (tmp_path, "directory"),
        (tmp_path / "none", "not found"),
        (tmp_path / "bin", "not UTF-8"),
    ):
        with pytest.raises(MastermindError, match=needle):
            read_text(path)


def test_a_name_under_proc_that_does_not_exist_is_refused_before_the_work():
    """Anything under /proc/ was taken for an open descriptor and written in place: a name
    there that does not exist failed only when written, after the work."""
    with pytest.raises(MastermindError, match="cannot write /proc/self/x.json: folder"):
        check_writable("/proc/self/x.json")
    check_writable("/proc/self/fd/1")  # (an open descriptor: written in place)


def test_a_loop_of_symlinks_is_refused_before_the_work(tmp_path):
    """It was refused only when written, once the work was done (and without its option's
    name, which the commands add to what check_writable raises)."""
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    with pytest.raises(MastermindError, match="cannot write .*loop: Too many levels of symbolic links"):
        check_writable(loop)
    dangling = tmp_path / "dangling"
    dangling.symlink_to(tmp_path / "later.json")
    check_writable(dangling)  # (a link to a file not made yet: written through the link)


def test_a_stream_stopped_leaves_no_file_and_the_old_one_as_it_was(tmp_path):
    from mastermind.core.fileio import streamed_write

    path = tmp_path / "proof.json.gz"
    for before in (None, b"old"):
        if before is not None:
            path.write_bytes(before)
        with pytest.raises(KeyboardInterrupt), streamed_write(path) as write:
            write('{"facts":[')
            assert len(list(tmp_path.iterdir())) == (1 if before is None else 2)  # (its twin)
            raise KeyboardInterrupt
        assert list(tmp_path.iterdir()) == ([] if before is None else [path])
        assert before is None or path.read_bytes() == before


def test_a_stream_is_what_the_whole_text_writes(tmp_path, capsys):
    from mastermind.core.fileio import gzipped_by_name, streamed_write

    pieces = ['{"facts":[', "1", ",2" * 5000, "]}", "é"]
    for name in ("a.json", "a.json.gz", "-"):
        path = name if name == "-" else tmp_path / name
        with streamed_write(path) as write:
            for piece in pieces:
                write(piece)
        whole = gzipped_by_name(path, "".join(pieces))
        if name == "-":
            assert capsys.readouterr().out == whole
        else:
            assert path.read_bytes() == (whole if isinstance(whole, bytes) else whole.encode())
            assert mode(path) == 0o666 & ~current_umask()
    with pytest.raises(MastermindError, match="it is a directory"), streamed_write(tmp_path):
        pass


def test_a_staged_file_is_moved_in_with_the_mode_it_replaces(tmp_path, monkeypatch):
    from mastermind.core.fileio import staged_move

    target, staged = tmp_path / "proof.json.gz", tmp_path / "staging" / "proof.json.gz"
    staged.parent.mkdir()
    target.write_bytes(b"old")
    os.chmod(target, 0o640)
    staged.write_bytes(b"new")
    with pytest.raises(ValueError), staged_move(target, staged):  # (the block failed: both stay)
        raise ValueError("the table beside it failed")
    assert target.read_bytes() == b"old" and staged.read_bytes() == b"new"
    with staged_move(target, staged):
        assert target.read_bytes() == b"old"  # (in place only as the block ends)
    assert target.read_bytes() == b"new" and mode(target) == 0o640 and not staged.exists()
    # another file system (no rename reaches it): copied through the target's twin
    real_replace = os.replace

    def across(src, dst):
        if os.fspath(src) == os.fspath(staged):
            raise OSError(errno.EXDEV, os.strerror(errno.EXDEV))
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", across)
    staged.write_bytes(b"newer")
    with staged_move(target, staged):
        pass
    assert target.read_bytes() == b"newer" and mode(target) == 0o640
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["proof.json.gz", "staging"]
    staged.write_bytes(b"x")
    os.chmod(target, 0o444)
    ran = []
    with pytest.raises(MastermindError, match="read-only"), staged_move(target, staged):
        ran.append(True)
    assert not ran and staged.exists()  # (refused before the block: the work not done)
