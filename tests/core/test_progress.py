"""The rich progress line: its count is the search's own count of work units."""

import io

from rich.console import Console
from rich.progress import Progress as Bar

from mastermind.core.progress import RichProgress


def rich_bar() -> Bar:
    """A rich progress that renders nowhere, refreshed only when asked."""
    return Bar(console=Console(file=io.StringIO()), auto_refresh=False)


def test_a_new_total_for_the_same_work_keeps_its_count_and_another_description_starts_afresh():
    bar = rich_bar()
    progress = RichProgress(bar)
    progress.start(12, "units")
    for done in range(1, 12):
        progress.report({"done": done, "steps": 12})
    progress.start(85, "units")  # the next round: more units planned, the count goes on
    (task,) = bar.tasks
    assert (task.completed, task.total) == (11, 85)
    progress.report({"done": 12, "steps": 85})
    progress.finish({"done": 14, "steps": 85})
    assert bar.tasks[0].completed == 14
    # a proven search drops the units still out: its last line plans fewer, all done
    progress.finish({"done": 80, "steps": 80})
    assert (bar.tasks[0].completed, bar.tasks[0].total) == (80, 80)
    progress.start(None, "other work")
    (task,) = bar.tasks
    assert (task.description, task.completed, task.total) == ("other work", 0, None)
    progress.advance(2)
    progress.report({"lower_bound": 3})  # a report without a count counts one step
    assert bar.tasks[0].completed == 3


def test_json_progress_ends_with_an_end_line_whatever_the_work(capsys):
    """Only the exact search gave its last "end" line: a command's other work (playing every
    secret, the rows of results) ended on its last step."""
    import json

    from mastermind.core.progress import progress_bar

    with progress_bar("json") as lines:
        lines.start(2, "playing")
        lines.advance(2)
    with progress_bar("json") as lines:
        lines.start(1, "search")
        lines.finish({"done": 1, "steps": 1, "proven": True})  # (a search's own last line)
        lines.start(3, "more work")
        lines.advance(1)
    events = [json.loads(line) for line in capsys.readouterr().err.splitlines()]
    ends = [e for e in events if e["event"] == "end"]
    assert ends == [
        {"event": "end", "description": "playing", "done": 2, "steps": 2},
        {"event": "end", "description": "search", "done": 1, "steps": 1, "proven": True},
        {"event": "end", "description": "more work", "done": 1, "steps": 3},
    ]
    assert events[-1] == ends[-1] and events[2] == ends[0]
