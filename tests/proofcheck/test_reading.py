"""A proof file read piece by piece (:mod:`mastermind.proofcheck.reading`): the same values
as ``json.load``, whatever the chunks cut, the facts checked as they are read, and a value
longer than the reader's cap refused."""

from __future__ import annotations

import copy
import gzip
import io
import json
from pathlib import Path

import pytest

from mastermind.proofcheck import (
    ProofError,
    check_proof,
    count_facts,
    load_proof,
    memory_needed,
    open_proof,
    proof_items,
    proof_rules,
    reading,
)

PROOFS = Path(__file__).resolve().parents[2] / "results" / "proofs"


def items_as_dict(raw: bytes) -> dict:
    return {key: list(value) if key == "facts" else value for key, value in proof_items(io.BytesIO(raw))}


@pytest.mark.parametrize("chunk", [1, 7, 4096])
def test_the_reader_gives_what_json_gives_whatever_the_chunks(monkeypatch, chunk):
    monkeypatch.setattr(reading, "CHUNK", chunk)  # (a number, a key, a code cut anywhere)
    for name in ("p3c3", "p3c4b", "p4c4n"):
        path = PROOFS / f"{name}.proof.json.gz"
        with open_proof(str(path)) as fh:
            assert items_as_dict(fh.read()) == load_proof(str(path))
    spaced = b' \n{ "a" : [ 1 , 2.5e3 , "\xc3\xa9" ] , "facts" : [ ] , "b" : 123456789 }\n '
    assert items_as_dict(spaced) == {"a": [1, 2500.0, "é"], "facts": [], "b": 123456789}
    assert items_as_dict(b"{}") == {}


@pytest.mark.parametrize(
    "raw, said",
    [
        (b'{"facts": [{"path": []}', "not JSON (expected , or ]"),
        (b'{"facts": [{"path": [}]}', "not JSON (Expecting value"),
        (b'{"a": 1} {"b": 2}', "not JSON (more after the object"),
        (b'{"a": 1 "b": 2}', "not JSON (expected , or }"),
        (b"{1: 2}", "not JSON (a key must be a string, got 1)"),
        (b"[1, 2]", "not JSON (expected {"),
        (b'{"a": "\xff"}', "not UTF-8 text"),
        (b'{"a": 12', "not JSON (expected , or }"),
        # (Python's int() refuses past 4300 digits, and its message advised sys.set_int_max_str_digits)
        (b'{"total": ' + b"7" * 5000 + b"}", "not JSON (a number too long to read, at character 10)"),
    ],
)
def test_bad_json_is_one_proof_error(monkeypatch, raw, said):
    monkeypatch.setattr(reading, "CHUNK", 3)
    with pytest.raises(ProofError) as caught:
        items_as_dict(raw)
    assert str(caught.value).startswith(said)


def test_a_cut_gzip_stream_is_a_proof_error(tmp_path):
    path = tmp_path / "cut.proof.json.gz"
    path.write_bytes((PROOFS / "p4c4.proof.json.gz").read_bytes()[:-40])
    with open_proof(str(path)) as fh, pytest.raises(ProofError, match="a damaged file"):
        check_proof(proof_items(fh))


def _stream(data: dict) -> io.BytesIO:
    return io.BytesIO(json.dumps(data).encode())


def test_facts_longer_than_the_cap_are_checked_one_by_one(monkeypatch):
    data = load_proof(str(PROOFS / "p4c5.proof.json.gz"))
    trees = max(len(json.dumps(data[k])) for k in ("strategy", "worst_strategy"))
    facts = len(json.dumps(data["facts"]))
    assert facts > 2 * trees  # (so the cap below holds every value but the list of facts)
    monkeypatch.setattr(reading, "MAX_VALUE", trees + 100)
    monkeypatch.setattr(reading, "CHUNK", 1000)
    assert check_proof(proof_items(_stream(data))) == check_proof(data)
    monkeypatch.setattr(reading, "MAX_VALUE", trees // 2)
    with pytest.raises(ProofError, match=f"a value longer than {trees // 2} characters"):
        check_proof(proof_items(_stream(data)))


def test_facts_before_the_rules_are_kept_and_checked_all_the_same():
    data = load_proof(str(PROOFS / "p4c4.proof.json.gz"))
    reordered = {"facts": data["facts"], **{k: v for k, v in data.items() if k != "facts"}}
    assert check_proof(proof_items(_stream(reordered))) == check_proof(data)
    assert proof_rules(_stream(reordered)) is None and proof_rules(_stream(data)) == "p4c4r"
    dropped = dict(data, facts=data["facts"][1:])  # (fact 0 removed: a streamed check fails too)
    with pytest.raises(ProofError) as streamed:
        check_proof(proof_items(_stream(dropped)))
    with pytest.raises(ProofError) as parsed:
        check_proof(dropped)
    assert str(streamed.value) == str(parsed.value)


def test_a_key_given_twice_is_refused():
    data = load_proof(str(PROOFS / "p3c3.proof.json.gz"))
    text = json.dumps(data)[:-1] + ', "total": ' + str(data["total"] - 1) + "}"
    with pytest.raises(ProofError, match="the key 'total' is given twice"):
        check_proof(proof_items(io.BytesIO(text.encode())))


@pytest.mark.parametrize(
    ("where", "key", "message"),
    [
        ("top", "worst_strateg", "the key 'worst_strateg' is not one of a proof file"),
        ("end", "comment", "the key 'comment' is not one of a proof file"),
        ("top", "breaker", "the key 'breaker' belongs to a proof of a game value"),
        ("fact", "symmetry", "fact 0: the key 'symmetry' is not one of a fact"),
        ("symmetry", "colors", r"fact 0 \(.*\): symmetry 0: the key 'colors' is not one of a symmetry"),
        ("node", "guesses", "strategy 112 0B1W: the key 'guesses' is not one of a node"),
    ],
)
def test_a_key_the_format_does_not_have_is_refused(where, key, message):
    """A misspelt key would be read as absent; the file is refused, read whole or streamed."""
    data = load_proof(str(PROOFS / "p3c3.proof.json.gz"))
    if where in ("fact", "symmetry", "node"):
        {
            "fact": data["facts"][0],
            "symmetry": data["facts"][0]["symmetries"][0],
            "node": data["strategy"]["children"]["0B1W"],
        }[where][key] = []
        changed = data
    else:
        changed = {key: None, **data} if where == "top" else {**data, key: None}
    check_proof(load_proof(str(PROOFS / "p3c3.proof.json.gz")))  # (the file as written passes)
    for given in (changed, proof_items(_stream(changed))):
        with pytest.raises(ProofError, match=message):
            check_proof(given)


def test_a_strategy_s_bad_code_or_answer_names_its_node():
    data = load_proof(str(PROOFS / "p3c3.proof.json.gz"))
    node = data["strategy"]["children"]["0B1W"]
    node["children"]["9B9W"] = node["children"].pop(next(iter(node["children"])))
    with pytest.raises(ProofError, match="^strategy 112 0B1W: '9B9W' is no answer of p3c3r$"):
        check_proof(copy.deepcopy(data))
    data["strategy"]["guess"] = "119"
    with pytest.raises(ProofError, match="^strategy: '119' is no code of p3c3r$"):
        check_proof(data)


def test_an_unterminated_string_is_said_once_at_its_start():
    text = json.dumps(load_proof(str(PROOFS / "p3c3.proof.json.gz")))
    start = text.index('"rules": "') + 9
    with pytest.raises(ProofError) as caught:
        check_proof(proof_items(io.BytesIO(text[: start + 3].encode())))
    assert str(caught.value) == f"not JSON (Unterminated string starting at character {start})"


def test_the_facts_are_counted_without_parsing(monkeypatch):
    monkeypatch.setattr(reading, "CHUNK", 5)  # ("path" cut by a chunk's end counts once)
    for name in ("p3c3", "p4c5"):
        data = load_proof(str(PROOFS / f"{name}.proof.json.gz"))
        assert count_facts(_stream(data)) == len(data["facts"])
    gz = gzip.compress(json.dumps(data).encode())
    assert count_facts(gzip.GzipFile(fileobj=io.BytesIO(gz))) == len(data["facts"])


def test_memory_needed_grows_with_the_facts_and_the_game():
    assert memory_needed(0, 27) < memory_needed(1000, 27) < memory_needed(10**6, 27) < memory_needed(10**6)


def test_a_check_told_to_stop_says_how_many_facts_it_had_checked():
    """``stop`` is asked before the strategy's replay and before every fact: the check ends
    at the first True, saying how many facts it had checked (none failing)."""
    from mastermind.proofcheck import CheckStopped

    proof = Path(__file__).resolve().parents[2] / "results" / "proofs" / "p3c6.proof.json.gz"
    with open_proof(proof) as fh:
        whole = check_proof(proof_items(fh), stop=lambda: False)
    assert whole.facts > 11

    def stopping_at(asks: int):
        asked: list[int] = []

        def stop() -> bool:
            asked.append(1)
            return len(asked) == asks

        return stop

    for asks in (1, 2, 12, whole.facts + 1):
        with open_proof(proof) as fh, pytest.raises(CheckStopped) as stopped:
            check_proof(proof_items(fh), stop=stopping_at(asks))
        assert stopped.value.facts == max(asks - 2, 0)
    with open_proof(proof) as fh:
        assert check_proof(proof_items(fh)) == whole
