"""The HTML tree explorer: what the page embeds, the command, and the page in headless Chromium."""

from __future__ import annotations

import dataclasses
import json
import re
from decimal import ROUND_HALF_UP, Decimal

import pytest

from mastermind.app.cli import main
from mastermind.core.formats import FORMATS, write_tree
from mastermind.core.formats.html import page_data, structural_stats, write_html
from mastermind.core.game import CodeTable, Rules
from mastermind.engines.registry import strategy_tree

from .chromium import Chromium, find_chromium


@pytest.fixture(scope="module")
def minimax46(table46):
    tree = strategy_tree("minimax", table46)
    return tree, tree.stats(table46)


def test_embedded_tree_mirrors_the_strategy(table46, minimax46):
    tree, stats = minimax46
    data = page_data(tree, stats)
    assert (data["rules"], data["pegs"], data["colours"], data["symbols"]) == ("p4c6r", 4, 6, "123456")
    assert data["stats"] == {
        "total": 5801,
        "secrets": 1296,
        "average": round(5801 / 1296, 6),
        "worst": 5,
        "histogram": [1, 6, 62, 533, 694],
    }
    rules = tree.rules

    def same(compact, node):
        assert compact[:2] == [rules.code_text(node.guess), node.candidates]
        kids = compact[2] if len(compact) == 3 else []
        assert [a for a, _ in kids] == [str(rules.answer_feedbacks[a]) for a in sorted(node.children)]
        for (_, child), a in zip(kids, sorted(node.children)):
            same(child, node.children[a])

    same(data["tree"], tree.root)
    assert structural_stats(tree) == stats  # the counts alone give the replayed statistics
    assert page_data(tree)["stats"] == data["stats"]


def test_page_is_self_contained_and_script_safe(minimax46):
    tree, stats = minimax46
    page = write_html(dataclasses.replace(tree, name="a </script><b>&"), stats)
    assert "__TREE_DATA__" not in page and "</script><b>" not in page
    assert not re.search(r"(src|href)\s*=|https?://|@import|url\(", page)
    embedded = re.search(r'<script type="application/json" id="data">(.*?)</script>', page, re.DOTALL)
    assert json.loads(embedded.group(1))["name"] == "a </script><b>&"


def test_export_html_command(tmp_path, capsys):
    out = tmp_path / "tree.html"
    assert main(["export", "-r", "p3c3", "-s", "entropy", "--out", str(out), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["format"] == "html" and summary["secrets"] == 27
    page = out.read_text()
    assert page.startswith("<!DOCTYPE html>") and '"rules":"p3c3r"' in page
    assert main(["export", "-r", "p2c2", "--format", "HTML", "--out", "-"]) == 0  # to standard output
    table = CodeTable(Rules(2, 2))
    tree = strategy_tree("minimax", table)
    assert capsys.readouterr().out == write_tree(tree, "html", tree.stats(table))


def test_export_a_strategy_file_as_html(tmp_path, capsys, data_dir):
    out = tmp_path / "koyama.html"
    assert main(["export", "-s", str(data_dir / "p4c6r-koyama-1.txt"), "--out", str(out), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    # a strategy file is named by its path as given, in every command
    assert (summary["strategy"], summary["total"], summary["worst"]) == (
        str(data_dir / "p4c6r-koyama-1.txt"),
        5625,
        6,
    )
    assert '"name":"p4c6r-koyama-1"' in out.read_text()
    bad = tmp_path / "bad.txt"
    bad.write_text((data_dir / "p4c6r-knuth.txt").read_text().replace("16(1213", "17(1213", 1))
    for args, message in [
        (["-s", str(bad)], "count 17, but 16 secrets"),
        (["-s", str(data_dir / "p4c6r-knuth.txt"), "-r", "p4c5"], "not one of 1-5"),
        (["-s", str(tmp_path / "none.json")], "file not found"),
        (["-s", "minimx"], "--strategy: unknown value 'minimx'"),
    ]:
        assert main(["export", *args, "--out", str(tmp_path / "x.html")]) == 2
        err = capsys.readouterr().err
        assert message in err and err.count("\n") == 1, args
    assert not (tmp_path / "x.html").exists()


def test_unknown_format_lists_the_formats(capsys):
    assert main(["export", "-r", "p2c2", "--format", "pdf"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and all(f in err for f in FORMATS)


# ---- in a real browser ---------------------------------------------------------------------
CHROMIUM = find_chromium()
needs_browser = pytest.mark.skipif(
    CHROMIUM is None, reason="no chromium/chrome on PATH (Debian: apt install chromium)"
)


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    with Chromium(CHROMIUM, tmp_path_factory.mktemp("profile"), width=1280, height=900) as b:
        yield b


@pytest.fixture(scope="module")
def page_url(tmp_path_factory, minimax46):
    tree, stats = minimax46
    path = tmp_path_factory.mktemp("page") / "minimax.html"
    path.write_text(write_html(tree, stats), encoding="utf-8")
    return path.as_uri()


ROWS = """[...document.querySelectorAll('#tree li[role=treeitem]')].filter(li => li.offsetParent)
  .map(li => ({answer: li.querySelector('.ans').firstChild.textContent,
               guess: (li.querySelector('.pegs') || {dataset: {}}).dataset.code || null,
               n: li.querySelector('.n').textContent, exp: li.querySelector('.exp').textContent,
               worst: li.querySelector('.worst').textContent, level: +li.getAttribute('aria-level'),
               cls: li.className, expanded: li.getAttribute('aria-expanded'),
               focused: li === document.activeElement}))"""


def expected_numbers(table, tree, depths, path):
    """Secrets, expected and worst guesses at the node reached by ``path`` (guess, answer) pairs,
    from the replayed depths of the secrets that reach it (not from the page's arithmetic)."""
    secrets = table.all_codes
    for guess, answer in path:
        secrets = secrets[table.answer_indices(guess, secrets) == answer]
    left = depths[secrets] - len(path)
    return str(len(secrets)), to_fixed(left.mean(), 3), str(int(left.max()))


def to_fixed(x: float, digits: int) -> str:
    """JavaScript's ``x.toFixed(digits)``: a tie rounds up (2.3125 -> 2.313), where Python's
    format rounds it to even (2.312)."""
    return str(Decimal(float(x)).quantize(Decimal(1).scaleb(-digits), ROUND_HALF_UP))


@needs_browser
@pytest.mark.integration
def test_explore_the_tree_with_the_keyboard(browser, page_url, minimax46, table46, tmp_path):
    tree, stats = minimax46
    rules = tree.rules
    depths = tree.depths(table46)
    browser.open(page_url)
    # the header
    header = browser.evaluate("document.querySelector('header').innerText")
    assert "minimax strategy" in header and "p4c6r" in header
    assert re.search(r"total guesses\s+5801", header) and re.search(r"average\s+4\.4761", header)
    hist = browser.evaluate("[...document.querySelectorAll('#hist tr')].map(r => r.cells[2].textContent)")
    assert hist == [str(h) for h in stats.histogram]
    # lazy: only the root and its answers exist
    rows = browser.evaluate(ROWS)
    win = ["4B0W"] if tree.root.solves_here else []  # the row of a guess that was the secret
    assert browser.evaluate("document.querySelectorAll('#tree li').length") == 1 + len(
        tree.root.children
    ) + len(win)
    assert (rows[0]["guess"], rows[0]["n"], rows[0]["exp"], rows[0]["worst"]) == (
        "1122",
        "1296",
        "4.476",
        "5",
    )
    assert [r["answer"] for r in rows[1:]] == [
        str(rules.answer_feedbacks[a]) for a in sorted(tree.root.children)
    ] + win
    # keyboard only: Tab past the search box and the two buttons to the tree, down, right
    for _ in range(4):
        browser.press("Tab")
    assert browser.evaluate("document.activeElement.getAttribute('aria-level')") == "1"
    browser.press("ArrowDown")
    browser.press("ArrowDown")  # the second answer: 0B1W
    first = sorted(tree.root.children)[1]
    node = tree.root.children[first]
    browser.press("ArrowRight")
    rows = browser.evaluate(ROWS)
    focused = next(i for i, r in enumerate(rows) if r["focused"])
    assert rows[focused]["expanded"] == "true" and rows[focused]["guess"] == rules.code_text(node.guess)
    shown = rows[focused + 1 : focused + 1 + len(node.children)]
    for row, a in zip(shown, sorted(node.children)):
        child = node.children[a]
        path = [(tree.root.guess, first), (node.guess, a)]
        assert (row["answer"], row["guess"], row["level"]) == (
            str(rules.answer_feedbacks[a]),
            rules.code_text(child.guess),
            3,
        )
        assert (row["n"], row["exp"], row["worst"]) == expected_numbers(table46, tree, depths, path)
    browser.press("ArrowLeft")  # closes it again
    assert browser.evaluate(ROWS)[focused]["expanded"] == "false"
    # search: '/' jumps to the box; the path of the secret opens and lights up
    secret = max(range(table46.n), key=lambda s: (depths[s], s))  # a secret at the worst case
    text = rules.code_text(secret)
    browser.press("/")
    browser.type(text)
    game = tree.guesses_for(table46, secret)
    on_path = [r for r in browser.evaluate(ROWS) if "on-path" in r["cls"] or "target" in r["cls"]]
    assert [r["guess"] for r in on_path if "on-path" in r["cls"]] == [rules.code_text(g) for g, _, _ in game]
    answers = ["start"] + [str(rules.answer_feedbacks[a]) for _, a, _ in game[:-1]]
    assert [r["answer"] for r in on_path if "on-path" in r["cls"]] == answers
    target = [r for r in on_path if "target" in r["cls"]]
    assert (
        len(target) == 1 and target[0]["guess"] == text and target[0]["level"] == len(game) == depths[secret]
    )
    for depth, row in enumerate(on_path):
        path = [(g, a) for g, a, _ in game[:depth]]
        assert (row["n"], row["exp"], row["worst"]) == expected_numbers(table46, tree, depths, path)
    status = browser.evaluate("document.getElementById('status').textContent")
    assert status.startswith(f"{text}: solved with guess {len(game)}")
    assert " → ".join(f"{rules.code_text(g)} {rules.answer_feedbacks[a]}" for g, a, _ in game) in status
    browser.press("Enter")  # from the box to the secret's row
    assert browser.evaluate("document.activeElement.classList.contains('target')")
    browser.screenshot(tmp_path / "explorer.png")
    assert (tmp_path / "explorer.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert browser.page_errors() == []


@needs_browser
@pytest.mark.integration
def test_enter_and_space_toggle_and_the_tree_stays_a_tab_stop(browser, page_url, minimax46):
    """Enter and Space open and close the focused row; after "Collapse all" hides the focused
    row, Tab from that button still reaches the tree (its one tab stop moves to a shown row)."""
    tree, _ = minimax46
    rules = tree.rules
    browser.open(page_url)

    def focused():
        return browser.evaluate(
            "[document.activeElement.id, document.activeElement.getAttribute('aria-level'),"
            " document.activeElement.getAttribute('aria-expanded'),"
            " (document.activeElement.querySelector('.pegs') || {dataset: {}}).dataset.code || null]"
        )

    def visible_rows():
        return browser.evaluate(f"({ROWS}).length")

    for _ in range(4):
        browser.press("Tab")
    root = rules.code_text(tree.root.guess)
    assert focused() == ["", "1", "true", root]
    browser.press("Enter")
    assert focused() == ["", "1", "false", root] and visible_rows() == 1
    browser.press(" ")
    assert focused() == ["", "1", "true", root] and visible_rows() > 1
    first = tree.root.children[min(tree.root.children)]
    assert first.children  # the test goes one level below it
    browser.press("ArrowDown")
    browser.press(" ")
    assert focused() == ["", "2", "true", rules.code_text(first.guess)]
    browser.press("ArrowDown")
    child = first.children[min(first.children)]
    assert focused()[1:] == ["3", "true" if child.children else None, rules.code_text(child.guess)]
    browser.press("Tab", shift=True)
    assert focused()[0] == "collapse"
    browser.press("Enter")
    assert visible_rows() == 1
    browser.press("Tab")
    assert focused() == ["", "1", "false", root]
    assert browser.page_errors() == []


@needs_browser
@pytest.mark.integration
def test_bad_secret_and_link_to_a_secret(browser, page_url, minimax46, table46):
    tree, _ = minimax46
    browser.open(page_url + "#secret=6611")
    path = browser.evaluate(
        "[...document.querySelectorAll('li.on-path > .row .pegs')].map(p => p.dataset.code)"
    )
    game = tree.guesses_for(table46, tree.rules.parse_code("6611"))
    assert path == [tree.rules.code_text(g) for g, _, _ in game]
    browser.evaluate("document.getElementById('search').focus()")
    browser.press("Escape")
    assert browser.evaluate("document.querySelectorAll('.on-path').length") == 0

    # the level buttons: one more level under every open row, then everything closed
    def visible_rows():
        return browser.evaluate(f"({ROWS}).length")

    def rows_to_depth(node, depth):  # a row per node, and a win row under an open node that solves
        if depth == 1 or not node.children:
            return 1
        return 1 + node.solves_here + sum(rows_to_depth(c, depth - 1) for c in node.children.values())

    browser.evaluate("document.getElementById('collapse').click()")
    assert visible_rows() == 1
    for depth in (2, 3, 4):
        browser.evaluate("document.getElementById('more').click()")
        assert visible_rows() == rows_to_depth(tree.root, depth)
    browser.evaluate("document.getElementById('search').focus()")
    browser.type("1171")
    assert browser.evaluate("document.getElementById('search').getAttribute('aria-invalid')") == "true"
    assert "colour 7 is not one of 1–6" in browser.evaluate("document.getElementById('status').textContent")
    assert browser.page_errors() == []


def test_the_page_plays_the_variant_of_its_game():
    """A black-peg tree: the page's answers are black pegs alone, its win is 3B, and its
    scorer (the one copy of the formula outside Python, for the search box) writes them so."""
    table = CodeTable(Rules(3, 3, variant="black-peg"))
    data = page_data(strategy_tree("minimax", table))
    assert (data["rules"], data["whites"], data["win"]) == ("p3c3rb", False, "3B")
    answers = set()

    def walk(compact):
        for answer, child in compact[2] if len(compact) == 3 else []:
            answers.add(answer)
            walk(child)

    walk(data["tree"])
    assert answers and all(re.fullmatch(r"[0-9]B", a) for a in answers)
    standard = page_data(strategy_tree("minimax", CodeTable(Rules(3, 3))))
    assert (standard["whites"], standard["win"]) == (True, "3B0W")
    page = write_html(strategy_tree("minimax", table))
    assert "WIN = D.win" in page and "WHITES ? black" in page
