"""Benchmark of the HTML tree explorer: page size, load time and search time in headless Chromium.

    python benchmarks/bench_html.py                          # p4c6, p4c8, p6c4 minimax trees
    python benchmarks/bench_html.py --games p4c8:optimal --runs 7

Load time is the page's own navigation timing (start to DOMContentLoaded, which the explorer's
script has finished by then: it parses the embedded tree, totals every subtree and builds the
first level); search time is typing a worst-case secret until its path is open and marked.
Each is the median over ``--runs`` loads of the same file in one browser.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "core" / "formats")]  # the test suite's DevTools driver

from chromium import Chromium, find_chromium

from mastermind.app.players import tree_of
from mastermind.core.formats.html import write_html
from mastermind.core.game import CodeTable, Rules

LOAD = (
    "(() => { const n = performance.getEntriesByType('navigation')[0]; "
    "return n.domContentLoadedEventEnd; })()"
)
SEARCH = """(() => { const s = document.getElementById('search'), t = performance.now();
  s.value = %r; s.dispatchEvent(new Event('input'));
  return [performance.now() - t, document.querySelectorAll('li.on-path').length,
          document.querySelectorAll('#tree li').length]; })()"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games",
        nargs="+",
        default=["p4c6:minimax", "p4c8:minimax", "p6c4:minimax"],
        help="RULES:STRATEGY pairs",
    )
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    browser_path = find_chromium()
    if browser_path is None:
        sys.exit("no chromium on PATH")
    folder = Path(tempfile.mkdtemp(prefix="bench_html."))
    print("| game | strategy | secrets | tree nodes | page KiB | load ms | search ms | rows after search |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    with Chromium(browser_path, folder / "profile") as browser:
        for spec in args.games:
            game, strategy = spec.split(":")
            table = CodeTable(Rules.parse(game))
            tree = tree_of(strategy, table)
            stats = tree.stats(table)
            page = folder / f"{game}-{strategy}.html"
            page.write_text(write_html(tree, stats), encoding="utf-8")
            secret = table.rules.code_text(stats.worst_secrets[-1])
            loads, searches = [], []
            for _ in range(args.runs):
                browser.open(page.as_uri() + f"?{time.monotonic_ns()}")
                loads.append(browser.evaluate(LOAD))
                took, _, rows = browser.evaluate(SEARCH % secret)
                searches.append(took)
            print(
                f"| {game} | {strategy} | {stats.secrets} | {tree.n_nodes()} | "
                f"{page.stat().st_size / 1024:.0f} | {statistics.median(loads):.0f} | "
                f"{statistics.median(searches):.1f} | {rows} |"
            )


if __name__ == "__main__":
    main()
