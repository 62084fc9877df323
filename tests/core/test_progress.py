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
        progress.report({"done": done, "total": 12})
    progress.start(85, "units")  # the next round: more units planned, the count goes on
    (task,) = bar.tasks
    assert (task.completed, task.total) == (11, 85)
    progress.report({"done": 12, "total": 85})
    progress.finish({"done": 14, "total": 85})
    assert bar.tasks[0].completed == 14
    progress.start(None, "other work")
    (task,) = bar.tasks
    assert (task.description, task.completed, task.total) == ("other work", 0, None)
    progress.advance(2)
    progress.report({"lower_bound": 3})  # a report without a count counts one step
    assert bar.tasks[0].completed == 3
