"""Writing files atomically: a reader never sees half a file, a failure leaves the old one.

The one writer of the project (every ``--out`` goes through :func:`write_atomic`):

- ``-`` is standard output;
- a symlink is followed: its target is replaced, the link stays a link;
- a device, FIFO or other special file (``/dev/null``), and a name of an open descriptor
  (``/dev/stdout``, ``/proc/self/fd/1``), is written in place, since renaming over it would
  replace the device by a regular file or leave the descriptor on the old file (a FIFO that
  nothing reads is refused, by :func:`check_writable` before any work);
- a regular file is replaced through a temporary file in its folder and a rename, keeping
  its mode; a new file gets the usual mode (``0o666`` minus the umask);
- a read-only target, a directory or a missing folder is a :class:`MastermindError`.

>>> from mastermind.core.fileio import current_umask, write_atomic
>>> import os, stat, tempfile
>>> folder = tempfile.mkdtemp()
>>> path = os.path.join(folder, "tree.json")
>>> write_atomic(path, "{}\\n")
>>> open(path).read(), stat.S_IMODE(os.stat(path).st_mode) == 0o666 & ~current_umask()
('{}\\n', True)
"""

from __future__ import annotations

import errno
import io
import os
import stat
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import NoReturn, Protocol, TextIO

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX
    fcntl = None  # type: ignore[assignment]

from mastermind.core.errors import DamagedFile, MastermindError

STDOUT = "-"


def input_name(path: str | os.PathLike[str]) -> str:
    """A file read as messages and reports name it: ``-`` is standard input.

    >>> from mastermind.core.fileio import input_name
    >>> input_name("-"), input_name("tree.json")
    ('standard input', 'tree.json')
    """
    return "standard input" if str(path) == "-" else os.fspath(path)


def current_umask() -> int:
    """The process umask (read by setting it and putting it back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


@contextmanager
def folder_lock(folder: str | os.PathLike[str], *, wait: bool = True) -> Iterator[None]:
    """Hold an advisory lock (``flock``) on an existing folder, so that two processes take
    turns at what one of them does there. ``wait=False``: raise :class:`BlockingIOError` at
    once when another process holds it. The lock goes with the process, even a killed one.

    >>> import tempfile
    >>> from mastermind.core.fileio import folder_lock
    >>> folder = tempfile.mkdtemp()
    >>> with folder_lock(folder):
    ...     pass
    """
    if fcntl is None:  # pragma: no cover - no advisory locks on this system: not held
        yield
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX if wait else fcntl.LOCK_EX | fcntl.LOCK_NB)
        yield
    finally:
        os.close(fd)  # (releases the lock)


def gzipped_by_name(path: str | os.PathLike[str], data: str | bytes) -> str | bytes:
    """``data`` gzipped (text as UTF-8) when ``path`` names a ``.gz`` file, as ``verify`` and
    ``--start-from`` read it; else as it is (standard output too).

    >>> from mastermind.core.fileio import gzipped_by_name
    >>> import gzip
    >>> gzip.decompress(gzipped_by_name("tree.json.gz", "{}")), gzipped_by_name("tree.json", "{}")
    (b'{}', '{}')
    """
    if is_stdout(path) or not os.fspath(path).lower().endswith(".gz"):
        return data
    import gzip

    return gzip.compress(data.encode("utf-8") if isinstance(data, str) else data, mtime=0)


def write_atomic(path: str | os.PathLike[str], data: str | bytes) -> None:
    """Write ``data`` (text as UTF-8, or bytes) to ``path``; see the module for the rules."""
    with staged_write(path, data):
        pass


def _existing(target: Path, shown: str) -> os.stat_result | None:
    """What is at the output's ``target`` now (None: nothing yet), refused if a directory or
    unreadable."""
    try:
        info = os.stat(target)
    except (FileNotFoundError, NotADirectoryError):  # (the folder is checked below)
        return None
    except OSError as exc:
        raise MastermindError(f"cannot write {shown}: {exc.strerror}") from None
    if stat.S_ISDIR(info.st_mode):
        raise MastermindError(f"cannot write {shown}: it is a directory; give a file name")
    return info


@contextmanager
def streamed_write(path: str | os.PathLike[str]) -> Iterator[Callable[[str], None]]:
    """Write ``path`` as :func:`write_atomic` does, from text given piece by piece to the
    function the block gets (gzip-compressed when the name ends in ``.gz``, as
    :func:`gzipped_by_name` does): a regular file streams into its temporary twin, put in
    place only as the block ends without an error (an error or a stop leaves no file and
    the old one as it was), so that output larger than memory never sits in it. Standard
    output and special files get the whole text as the block ends (a stop writes nothing).

    >>> import gzip, os, tempfile
    >>> from mastermind.core.fileio import streamed_write
    >>> path = os.path.join(tempfile.mkdtemp(), "facts.json.gz")
    >>> with streamed_write(path) as write:
    ...     write("[1,")
    ...     write("2]")
    >>> gzip.decompress(open(path, "rb").read()), os.listdir(os.path.dirname(path))
    (b'[1,2]', ['facts.json.gz'])
    """
    _refuse_empty(path)
    shown = os.fspath(path)
    target = None if is_stdout(path) or _names_a_descriptor(path) else Path(os.path.realpath(path))
    info = None if target is None else _existing(target, shown)
    if target is None or (info is not None and not stat.S_ISREG(info.st_mode)):
        pieces: list[str] = []  # (written in place, or refused, as the block ends)
        yield pieces.append
        write_atomic(path, gzipped_by_name(path, "".join(pieces)))
        return
    _refuse_folder_name(shown)
    fd, tmp, mode = _make_temporary(target, info, shown)
    try:
        with os.fdopen(fd, "wb") as raw:
            if shown.lower().endswith(".gz"):
                import zlib

                # (gzip.compress's stream, with no name nor time: the same bytes as
                # gzipped_by_name makes of the whole text)
                packer = zlib.compressobj(9, zlib.DEFLATED, 31)

                def packed(text: str) -> None:
                    raw.write(packer.compress(text.encode("utf-8")))

                yield packed
                raw.write(packer.flush())
            else:

                def plain(text: str) -> None:
                    raw.write(text.encode("utf-8"))

                yield plain
            raw.flush()
            os.fsync(raw.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException as exc:  # (the block's own error, a stop: the temporary file goes)
        _failed_write(tmp, shown, exc)


@contextmanager
def staged_write(path: str | os.PathLike[str], data: str | bytes) -> Iterator[None]:
    """Write ``data`` for ``path`` as :func:`write_atomic` does, but put it in place only as
    the block ends without an error, so that a file changes only with what the block writes
    (a published tree and the table that gives its total: the tree is written first, a full
    disk then stops the table, and the old tree stays; the rename at the end needs no room).
    Standard output and special files are written as the block ends.

    >>> import os, tempfile
    >>> from mastermind.core.fileio import staged_write
    >>> path = os.path.join(tempfile.mkdtemp(), "tree.json")
    >>> try:
    ...     with staged_write(path, "{}"):
    ...         raise ValueError("the table beside it failed")
    ... except ValueError:
    ...     pass
    >>> os.listdir(os.path.dirname(path))
    []
    """
    _refuse_empty(path)
    shown = os.fspath(path)
    if is_stdout(path):
        yield
        write_stdout(data)
        return
    if _names_a_descriptor(path):
        yield
        _write_in_place(Path(path), shown, data)
        return
    target = Path(os.path.realpath(path))  # through symlinks: the link stays, its target changes
    info = _existing(target, shown)
    _refuse_folder_name(shown)
    if info is not None and not stat.S_ISREG(info.st_mode):
        yield
        _write_in_place(target, shown, data)
        return
    fd, tmp, mode = _make_temporary(target, info, shown)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(_as_bytes(data))
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
    except BaseException as exc:
        _failed_write(tmp, shown, exc)
    try:
        yield
    except BaseException:  # (the block's own error, as it is)
        _remove_temporary(tmp)
        raise
    try:
        os.replace(tmp, target)
    except BaseException as exc:
        _failed_write(tmp, shown, exc)


def _new_mode(target: Path, info: os.stat_result | None, shown: str) -> int:
    """The mode the regular file ``target`` gets when replaced (``info``: its stat, None
    when it is new: the usual mode); a read-only file or a missing folder is refused."""
    if info is not None and _read_only(target, info.st_mode):
        raise MastermindError(f"cannot write {shown}: the file is read-only")
    _refuse_no_folder(target.parent, shown)
    return stat.S_IMODE(info.st_mode) if info is not None else 0o666 & ~current_umask()


@contextmanager
def staged_move(path: str | os.PathLike[str], source: str | os.PathLike[str]) -> Iterator[None]:
    """Put the finished file ``source`` at ``path`` as :func:`staged_write` puts its data
    (refused before the block as it refuses; in place only as the block ends without an
    error; the mode of the file it replaces kept), by a rename: a file written by
    :func:`streamed_write` to a staging place is never read into memory. ``source`` is
    moved away; it stays where it is when the block fails. On another file system, and for
    standard output and special files, its bytes are copied.

    >>> import os, tempfile
    >>> from mastermind.core.fileio import staged_move
    >>> folder = tempfile.mkdtemp()
    >>> staged = os.path.join(folder, "staged.json")
    >>> with open(staged, "w") as fh:
    ...     _ = fh.write("{}")
    >>> with staged_move(os.path.join(folder, "proof.json"), staged):
    ...     pass
    >>> os.listdir(folder)
    ['proof.json']
    """
    _refuse_empty(path)
    shown = os.fspath(path)
    target = None if is_stdout(path) or _names_a_descriptor(path) else Path(os.path.realpath(path))
    info = None if target is None else _existing(target, shown)
    if target is None or (info is not None and not stat.S_ISREG(info.st_mode)):
        with staged_write(path, Path(source).read_bytes()):  # (written in place: no rename)
            yield
        return
    _refuse_folder_name(shown)
    mode = _new_mode(target, info, shown)
    yield
    try:
        os.chmod(source, mode)
        os.replace(source, target)
        return
    except OSError as exc:
        if exc.errno != errno.EXDEV:
            raise MastermindError(f"cannot write {shown}: {exc.strerror}") from None
    _copy_in(source, target, info, shown)  # (another file system: no rename reaches it)
    _remove_temporary(os.fspath(source))


def _copy_in(source: str | os.PathLike[str], target: Path, info: os.stat_result | None, shown: str) -> None:
    """The file ``source`` copied to ``target`` through its temporary twin, a piece at a time."""
    import shutil

    fd, tmp, mode = _make_temporary(target, info, shown)
    try:
        with os.fdopen(fd, "wb") as fh, open(source, "rb") as src:
            shutil.copyfileobj(src, fh)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException as exc:
        _failed_write(tmp, shown, exc)


def _make_temporary(target: Path, info: os.stat_result | None, shown: str) -> tuple[int, str, int]:
    """The temporary twin of the regular file ``target`` (``info``: its stat, None when it
    is new) made in its folder, open (its descriptor), with its name and the mode the file
    gets (see :func:`_new_mode`)."""
    mode = _new_mode(target, info, shown)
    folder = target.parent
    try:
        fd, tmp = tempfile.mkstemp(prefix=_temp_prefix(target.name), suffix=".tmp", dir=folder)
    except OSError as exc:
        raise MastermindError(f"cannot write {shown}: {exc.strerror} (folder {folder})") from None
    return fd, tmp, mode


def _remove_temporary(tmp: str) -> None:
    try:
        os.unlink(tmp)
    except FileNotFoundError:
        pass


def _failed_write(tmp: str, shown: str, exc: BaseException) -> NoReturn:
    """The temporary file ``tmp`` removed, and the error of writing ``shown`` raised (one
    naming the file and why for the system's errors)."""
    _remove_temporary(tmp)
    if isinstance(exc, OSError):
        raise MastermindError(f"cannot write {shown}: {exc.strerror}") from None
    raise exc


def same_file(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> bool:
    """Whether two names of files to write name the same file (either may not exist yet:
    their real paths compared; standard output is no file here).

    >>> from mastermind.core.fileio import same_file
    >>> same_file("out/t.json", "out/../out/t.json"), same_file("t.json", "p.json")
    (True, False)
    """
    if is_stdout(a) or is_stdout(b):
        return False
    try:  # (both there: one file by two names, a hard link or a case-blind file system)
        return os.path.samefile(a, b)
    except OSError:
        return os.path.realpath(a) == os.path.realpath(b)


def is_stdout(path: str | os.PathLike[str]) -> bool:
    """``-``, or a name of this process's standard output (``/dev/stdout``, ``/dev/fd/1``):
    written through ``sys.stdout``, so that it mixes in order with other output."""
    if str(path) == STDOUT:
        return True
    if not _names_a_descriptor(path):
        return False
    try:
        here, out = os.stat(path), os.fstat(sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # no real descriptor behind sys.stdout
        return False
    return (here.st_dev, here.st_ino) == (out.st_dev, out.st_ino)


def _names_a_descriptor(path: str | os.PathLike[str]) -> bool:
    """``/dev/stdout``, ``/dev/fd/1``, ``/proc/self/fd/1``: an open descriptor, whatever it is.

    Their link targets are not files to replace (the descriptor would keep the old one).
    """
    here = os.path.abspath(path)
    for _ in range(40):  # a symlink loop ends here too
        if here in ("/dev/stdout", "/dev/stderr"):
            return True
        if here.startswith(("/proc/", "/dev/fd/")):  # (a name there that does not exist is no
            # descriptor: refused where its folder is, /proc/self/x.json included)
            return os.path.exists(here)
        if not os.path.islink(here):
            return False
        here = os.path.normpath(os.path.join(os.path.dirname(here), os.readlink(here)))
    return False


def _refuse_empty(path: str | os.PathLike[str]) -> None:
    # Path("") is "." (the current folder): an empty name is a mistake, not a place
    if not os.fspath(path):
        raise MastermindError("the output file name is empty: give a file name")


def _read_only(target: Path, mode: int) -> bool:
    # root may write anything: a file without write bits is still meant to be kept
    return not os.access(target, os.W_OK) or not mode & 0o222


def _as_bytes(data: str | bytes) -> bytes:
    return data.encode("utf-8") if isinstance(data, str) else data


def write_stdout(data: str | bytes) -> None:
    """Write ``data`` (text as UTF-8, or bytes) to standard output, every byte or an error:
    a reader that leaves part-way raises ``BrokenPipeError``. Python's buffered writer took
    the short write of a pipe whose reader had gone for the whole (69632 of 138847 bytes,
    and ``export --out -`` then said it wrote the tree), so the descriptor is written here
    until done; a stream with none (a test's capture, a closed standard output) is written
    as it is."""
    buffer = getattr(sys.stdout, "buffer", None)
    # (the descriptor's file object: under the buffer, or the buffer itself unbuffered, -u)
    raw = buffer if isinstance(buffer, io.FileIO) else getattr(buffer, "raw", None)
    if not isinstance(raw, io.FileIO):
        if isinstance(data, str):
            sys.stdout.write(data)
        else:
            sys.stdout.flush()
            sys.stdout.buffer.write(data)
        sys.stdout.flush()
        return
    sys.stdout.flush()  # (what went before, in order)
    view = memoryview(_as_bytes(data))
    while view:
        written = raw.write(view)
        if written is None:  # (a descriptor left non-blocking, full: wait until it takes more)
            import select

            select.select([], [raw.fileno()], [])
            continue
        view = view[written:]


TEMP_NAME_KEPT = 200
"""The characters of a file's name its temporary twin keeps: the twin adds a dot, 8 random
characters and ``.tmp``, and a name of 242-255 characters (the system allows 255) made the
twin's name too long, so that such a file could be checked but never written."""


def _temp_prefix(name: str) -> str:
    """The prefix of the temporary file written beside ``name`` (then renamed over it).

    >>> from mastermind.core.fileio import _temp_prefix, TEMP_NAME_KEPT
    >>> len(_temp_prefix("x" * 255)) <= TEMP_NAME_KEPT + 2, _temp_prefix("t.json")
    (True, '.t.json.')
    """
    return f".{name[:TEMP_NAME_KEPT]}."


_HELD_PIPES: dict[str, int] = {}
"""Named pipes :func:`check_writable` found a reader at, by their real path: the descriptor
it opened, kept open for the write after the work (closed, it would tell the reader the
data had ended, before any came)."""


def _open_pipe(target: Path, shown: str) -> int:
    """A blocking descriptor writing into the named pipe ``target``: the one
    :func:`check_writable` holds, else opened now. Nothing reading it is refused at once: a
    plain open would wait for a reader, past any time limit and for ever."""
    held = _HELD_PIPES.pop(str(target), None)
    if held is not None:
        return held
    try:
        fd = os.open(target, os.O_WRONLY | os.O_NONBLOCK)
    except OSError as exc:
        if exc.errno == errno.ENXIO:
            raise MastermindError(f"cannot write {shown}: a named pipe that nothing reads") from None
        raise MastermindError(f"cannot write {shown}: {exc.strerror}") from None
    os.set_blocking(fd, True)  # (a reader is there: it may take the data at its pace)
    return fd


def _hold_pipe(target: Path, shown: str) -> None:
    """Refuse the named pipe ``target`` if nothing reads it; else keep the descriptor opened
    for the write that comes after the work."""
    _HELD_PIPES[str(target)] = _open_pipe(target, shown)


def release_held_pipes() -> None:
    """Close the named pipes :func:`check_writable` held for a write that never came (the
    command refused later, stopped before its output, or wrote nothing): their readers see
    the end of the data at once, not when the process ends (a library caller's may not)."""
    while _HELD_PIPES:
        os.close(_HELD_PIPES.popitem()[1])


def _write_in_place(target: Path, shown: str, data: str | bytes) -> None:
    """Devices and FIFOs cannot be renamed over: open them for writing as they are (a FIFO
    without a reader is refused at once, see :func:`_open_pipe`)."""
    try:
        if stat.S_ISFIFO(os.stat(target).st_mode):
            fh = os.fdopen(_open_pipe(target, shown), "wb")
        else:
            fh = open(target, "wb")  # (truncates what a file in place had; devices ignore it)
        with fh:
            fh.write(_as_bytes(data))
    except OSError as exc:
        raise MastermindError(f"cannot write {shown}: {exc.strerror}") from None


def check_writable(path: str | os.PathLike[str]) -> None:
    """Refuse, before any work, an output path that :func:`write_atomic` would refuse (a
    named pipe that nothing reads too: one that something reads is held open for the write)."""
    _refuse_empty(path)
    if str(path) == STDOUT or _names_a_descriptor(path):  # written in place: nothing to rename
        return
    shown = os.fspath(path)
    try:  # (a loop of symlinks, a name too long: refused now, not once the work is done)
        os.stat(path)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENAMETOOLONG):
            raise MastermindError(f"cannot write {shown}: {exc.strerror}") from None
    target = Path(os.path.realpath(path))
    if target.is_dir():
        raise MastermindError(f"cannot write {shown}: it is a directory; give a file name")
    _refuse_folder_name(shown)
    if target.exists():
        if stat.S_ISFIFO(target.stat().st_mode):  # written in place, if something reads it
            _hold_pipe(target, shown)
            return
        if not target.is_file():  # a device: written in place, if it opens for writing now
            _probe_device(target, shown)
            return
        if _read_only(target, target.stat().st_mode):
            raise MastermindError(f"cannot write {shown}: the file is read-only")
    else:
        _refuse_no_folder(target.parent, shown)
    # the file is written beside its target and renamed over it (a read-only mount, too)
    why = unwritable(target.parent, target.name)
    if why is not None:
        raise MastermindError(f"cannot write {shown}: folder {target.parent} is {why}")


def _probe_device(target: Path, shown: str) -> None:
    """Refuse a device that does not open for writing (``/dev/tty`` without a terminal: the
    search ran, then its tree could not be written); opened without blocking, and closed."""
    try:
        os.close(os.open(target, os.O_WRONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0)))
    except OSError as exc:
        raise MastermindError(f"cannot write {shown}: {exc.strerror}") from None


def _refuse_folder_name(shown: str) -> None:
    """A name ending in a slash names a folder, even one not there (the system would write
    ``out/`` as the file ``out``)."""
    if shown.endswith(os.sep):
        raise MastermindError(
            f"cannot write {shown}: a name ending in {os.sep} is a folder; give a file name"
        )


def not_a_folder(path: str | os.PathLike[str]) -> str:
    """What ``path``, there and no folder, is: "a file", "a device" (``/dev/full``, which was
    called a file) or "a special file" (a FIFO, a socket).

    >>> from mastermind.core.fileio import not_a_folder
    >>> not_a_folder("/dev/null")
    'a device'
    """
    mode = os.stat(path).st_mode
    if stat.S_ISREG(mode):
        return "a file"
    return "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "a special file"


def _refuse_no_folder(folder: Path, shown: str) -> None:
    if folder.exists() and not folder.is_dir():
        raise MastermindError(f"cannot write {shown}: {folder} is {not_a_folder(folder)}, not a folder")
    if not folder.is_dir():
        raise MastermindError(f"cannot write {shown}: folder {folder} does not exist")


def unwritable(folder: Path, name: str = "probe") -> str | None:
    """Why no file can be made in ``folder`` ("not writable", with the system's reason once
    tried), or None when one can: the permission bits, then a try, for what they do not tell
    (root on a read-only mount, /sys, /proc, an immutable folder)."""
    if not os.access(folder, os.W_OK | os.X_OK):
        return "not writable"
    try:
        fd, probe = tempfile.mkstemp(prefix=_temp_prefix(name), suffix=".tmp", dir=folder)
    except OSError as exc:
        return f"not writable (a file made there failed: {exc.strerror})"
    os.close(fd)
    os.unlink(probe)
    return None


class BinaryReader(Protocol):
    def read(self, n: int, /) -> bytes: ...


MAX_READ = 256 * 1024**2  # a strategy file of the largest game in reach is a few tens of MiB


def read_text(path: str | os.PathLike[str], limit: int = MAX_READ) -> str:
    """Read a UTF-8 text file (``-``: standard input) of at most ``limit`` bytes, gzip
    compressed or not (told by its first bytes; at most ``limit`` bytes once uncompressed);
    a missing, unreadable, binary, damaged or endless file (``/dev/zero``) is a one-line
    error."""
    if not os.fspath(path):
        raise MastermindError("the file name is empty: give a file, or - for standard input")
    shown = input_name(path)
    try:
        if str(path) == "-":
            buffer = getattr(sys.stdin, "buffer", None)  # a text stream in tests
            raw = (
                _read_at_most(buffer, limit)
                if buffer is not None
                else _read_at_most(_Encoded(sys.stdin), limit)
            )
        else:
            with open(path, "rb") as fh:
                raw = _read_at_most(fh, limit)
    except FileNotFoundError:
        raise MastermindError(f"file not found: {path}") from None
    except IsADirectoryError:
        raise MastermindError(f"cannot read {shown}: it is a directory") from None
    except OSError as exc:
        raise MastermindError(f"cannot read {shown}: {exc.strerror or exc}") from None
    if raw is None:
        raise MastermindError(f"cannot read {shown}: larger than {format_size(limit)}")
    if raw[:2] == GZIP_MAGIC:
        raw = _gunzip(raw, shown, limit)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        reason = f"not UTF-8 text (byte {exc.start}); a binary file?"
        raise DamagedFile(f"cannot read {shown}: {reason}", reason) from None


GZIP_MAGIC = b"\x1f\x8b"


def _gunzip(raw: bytes, shown: str, limit: int) -> bytes:
    """The uncompressed bytes, read no further than ``limit`` (a small file may unpack to
    gigabytes)."""
    import gzip
    import io
    import zlib

    try:
        with gzip.GzipFile(fileobj=io.BytesIO(raw)) as fh:
            data = _read_at_most(fh, limit)
    except (OSError, EOFError, zlib.error) as exc:
        reason = f"a damaged gzip file ({exc})"
        raise DamagedFile(f"cannot read {shown}: {reason}", reason) from None
    if data is None:
        raise MastermindError(f"cannot read {shown}: larger than {format_size(limit)} once uncompressed")
    return data


def _read_at_most(stream: BinaryReader, limit: int) -> bytes | None:
    data = stream.read(limit + 1)
    return None if len(data) > limit else data


class _Encoded:
    """A text stream read as UTF-8 bytes."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def read(self, n: int) -> bytes:
        return self.stream.read(n).encode("utf-8")


def format_size(n: int) -> str:
    return f"{n // 1024**2} MiB" if n >= 1024**2 else f"{n} bytes"
