"""The test vectors of ``docs/protocol.md`` (``docs/protocol/vectors/``) are what the code
computes, byte for byte; verify gives every export its verdict; every export line fits the
JSON Schemas; and an implementation of the document's primitives that shares no code with
the engine (:mod:`tests.protocol.reference`) reproduces the vectors, and the engine's
canonical bytes on random values.
"""

from __future__ import annotations

import json
import math
import random
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spies_bots import bot_rng, bot_stream
from spies_core.rng import FairRng
from spies_replay.codec import canonical_json
from spies_replay.jcs import CanonicalizationError, jcs_bytes

from . import reference
from .make_vectors import OUT, build, on_disk, verdict

VECTORS = OUT / "vectors"


def load(name: str) -> Any:
    return json.loads((VECTORS / name).read_text("utf-8"))


def exports(folder: Path) -> list[dict[str, Any]]:
    """An index's entries, each with the folder its file is relative to."""
    index = json.loads((folder / "exports.json").read_text("utf-8"))["vectors"]
    return [{**entry, "folder": folder} for entry in index]


FORMAT_1 = exports(VECTORS / "format-1")
"""The exports of formats 1 and 2, frozen as written before format 3."""
EXPORTS: list[dict[str, Any]] = exports(VECTORS) + FORMAT_1


def lines_of(entry: dict[str, Any]) -> list[bytes]:
    return (entry["folder"] / entry["file"]).read_bytes().splitlines(keepends=True)


def name_of(entry: dict[str, Any]) -> str:
    stem = Path(entry["file"]).stem
    return f"format-1/{stem}" if entry["folder"] != VECTORS else stem


def test_the_vectors_and_schemas_are_what_the_code_computes() -> None:
    """Regenerated from scratch, every file is the same, byte for byte, and no other file
    is there (``python -m tests.protocol.make_vectors`` writes them)."""
    built, found = build(), on_disk()
    assert sorted(built) == sorted(found)
    changed = [path for path in built if built[path] != found[path]]
    assert not changed, f"regenerate with python -m tests.protocol.make_vectors: {changed}"


@pytest.mark.parametrize("entry", EXPORTS, ids=name_of)
def test_verify_gives_every_export_its_verdict(entry: dict[str, Any]) -> None:
    found = verdict(lines_of(entry), entry.get("head"))
    if "pending" in entry and found != entry["verdict"]:
        pytest.xfail(entry["pending"])
    assert found == entry["verdict"]


def test_the_vectors_cover_what_the_document_promises() -> None:
    """Every game finished, clocks, bot moves, seat events; tampering of each kind."""
    whole = [e for e in EXPORTS if "tampered" not in e["file"]]
    text = b"".join(b"".join(lines_of(e)) for e in whole)
    for game in (b"deck-of-spies", b"black-spy", b"spies-and-lies"):
        assert b'"game":"' + game + b'"' in text
    for needed in (
        b'"bot":"random@1"',
        b'"bot":"greedy@1"',
        b'"bot":"random@2"',
        b'"bot":"greedy@2"',
        b'"type":"clock_expired"',
        b'"type":"seat_handed_to_bot"',
        b'"type":"seat_taken_back"',
        b'"type":"seat_claimed"',
        b'"type":"clocks_resumed"',
        b'"type":"draw_deck_shuffled"',
        b'"type":"discard_reshuffled"',
        b'"seed_source":"server"',
        b'"seed_source":"deal"',
        b'"seed_source":"mixed"',
        b'"type":"entropy_added"',
        b'"format":"spies-replay/2"',
        b'"format":"spies-replay/3"',
        b'"log":"spies-replay/3"',
        b'"forfeit":true',
    ):
        assert needed in text, needed
    codes = {e["verdict"].get("code") for e in EXPORTS}
    assert {"hash-mismatch", "missing-event", "out-of-order", "seed-mismatch"} <= codes
    assert {"unknown-field", "duplicate-key", "published-head-mismatch"} <= codes
    assert {"seed-not-hex", "malformed-row", "header-mismatch"} <= codes
    for entry in EXPORTS:  # every game of today's build is format 3, the frozen ones not
        header = json.loads(lines_of(entry)[0])
        if entry["folder"] == VECTORS and "format-1" not in entry["file"]:
            assert header["format"] == "spies-replay/3", entry["file"]
        elif entry["folder"] != VECTORS:
            assert header["format"] in ("spies-replay/1", "spies-replay/2"), entry["file"]


OUTSIDE_THE_SCHEMAS = {"unknown-field", "misplaced-actor"}
"""Verdicts on a line's shape alone, which the schemas refuse too: a field the format does
not have; an actor or a mark on a row without a command."""


@pytest.fixture(scope="module")
def validators() -> tuple[Any, Any]:
    jsonschema_rs = pytest.importorskip("jsonschema_rs")
    return (
        jsonschema_rs.validator_for(json.loads((OUT / "export-header.schema.json").read_text())),
        jsonschema_rs.validator_for(json.loads((OUT / "export-event.schema.json").read_text())),
    )


@pytest.mark.parametrize("entry", EXPORTS, ids=name_of)
def test_every_line_of_an_export_fits_the_schemas(
    entry: dict[str, Any], validators: tuple[Any, Any]
) -> None:
    header, event = validators
    lines = [json.loads(line) for line in lines_of(entry)]
    valid = [header.is_valid(lines[0]), *(event.is_valid(line) for line in lines[1:])]
    if entry["verdict"].get("code") in OUTSIDE_THE_SCHEMAS:
        assert not all(valid), "a line the format refuses by its shape is outside the schema"
    else:
        assert all(valid), [n + 1 for n, ok in enumerate(valid) if not ok]


# -- the document's primitives, from the reference -------------------------------------------


@pytest.mark.parametrize("vector", load("canonical.json")["vectors"], ids=lambda v: v["name"])
def test_canonical_json(vector: dict[str, Any]) -> None:
    expected = bytes.fromhex(vector["canonical_hex"])
    assert vector["canonical"].encode() == expected
    assert canonical_json(vector["input"]) == expected
    assert reference.canonical_bytes(vector["input"]) == expected


@pytest.mark.parametrize("vector", load("canonical.json")["jcs"], ids=lambda v: v["name"])
def test_format_3_canonical_json(vector: dict[str, Any]) -> None:
    """The reference's RFC 8785 is the ``rfc8785`` library's, refusals included."""
    if vector.get("refused"):
        with pytest.raises(CanonicalizationError):
            jcs_bytes(msgspec.json.decode(vector["input"]))
        with pytest.raises(ValueError, match="2\\^53"):
            reference.jcs_bytes(vector["input"])
        return
    expected = bytes.fromhex(vector["canonical_hex"])
    assert vector["canonical"].encode() == expected
    assert jcs_bytes(msgspec.json.decode(vector["input"])) == expected
    assert reference.jcs_bytes(vector["input"]) == expected


@settings(max_examples=200, deadline=None)
@given(st.floats(allow_nan=False, allow_infinity=False))
def test_the_reference_es_number_is_rfc8785s(value: float) -> None:
    assert reference.es_number(value).encode() == jcs_bytes(value)


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=100, deadline=None)
@given(JSON_VALUES)
def test_the_reference_canonical_form_is_the_engines(value: Any) -> None:
    """What the document says of key order, escapes, integers and every float's text is
    what msgspec's deterministic encoder does."""
    text = msgspec.json.encode(value)
    assert reference.canonical_bytes(text) == canonical_json(text)


@settings(max_examples=200, deadline=None)
@given(st.floats(allow_nan=False, allow_infinity=False))
def test_float_text_round_trips(value: float) -> None:
    text = reference.float_text(value)
    assert float(text) == value and math.copysign(1, float(text)) == math.copysign(1, value)
    assert text == canonical_json(msgspec.json.encode(value)).decode()


@pytest.mark.parametrize("log", ["spies-replay/1", "spies-replay/3"])
def test_the_hash_chain(log: str) -> None:
    vectors = reference.parse((VECTORS / "hashes.json").read_bytes())
    if log == reference.FORMAT_3:
        vectors = vectors["format_3"]
        assert vectors["rows"][0]["event"]["log"] == log
    assert vectors["chain"] == log
    assert reference.genesis(vectors["game_id"], log) == vectors["genesis_hash"]
    previous = vectors["genesis_hash"]
    for row in vectors["rows"]:
        assert row["previous_hash"] == previous
        assert reference.row_bytes(row, log) == row["canonical"].encode()
        previous = reference.link(previous, row["canonical"].encode())
        assert previous == row["hash"]
    assert any("bot" in row for row in vectors["rows"])
    assert any("bot" not in row and row["command"] for row in vectors["rows"])


def test_every_exports_chain_and_commitments_from_the_reference() -> None:
    """The reference walks each untampered export: every hash, the head, the seed and deal
    commitments."""
    for entry in EXPORTS:
        if not entry["verdict"]["ok"]:
            continue
        lines = lines_of(entry)
        header = json.loads(lines[0])
        log = reference.chain(header["format"])
        previous = reference.genesis(header["id"], log)
        for line in lines[1:]:
            row = reference.parse(line)
            previous = reference.link(previous, reference.row_bytes(row, log))
            assert previous == row["hash"], (entry["file"], row["seq"])
        assert previous == header["head_hash"]
        created = json.loads(lines[1])["event"]
        revealed = json.loads(lines[-1])["event"]
        seed = bytes.fromhex(revealed["seed"])
        assert reference.seed_commitment(seed) == created["seed_commitment"]
        if created.get("deal_commitment") is not None:
            deal = json.dumps(revealed["deal"])
            assert reference.deal_commitment(seed, deal, log) == created["deal_commitment"]


@pytest.mark.parametrize("vector", load("entropy.json")["vectors"], ids=lambda v: v["name"])
def test_the_entropy_mix(vector: dict[str, Any]) -> None:
    """The reference's mix of the logged contributions is the vector's mixed seed."""
    logged = [(item["seat"], bytes.fromhex(item["entropy"])) for item in vector["logged"]]
    server = bytes.fromhex(vector["server_seed_hex"])
    assert reference.mixed(server, logged).hex() == vector["mixed_seed_hex"]


@pytest.mark.parametrize("vector", load("stream.json")["vectors"], ids=str)
def test_the_stream(vector: dict[str, Any]) -> None:
    seed = bytes.fromhex(vector["seed_hex"])
    for index, item in enumerate(vector["blocks"]):
        assert item["message"] == f"spies/1:{vector['nonce']}:{index}"
        assert reference.block(seed, vector["nonce"], index).hex() == item["bytes_hex"]


@pytest.mark.parametrize("vector", load("randrange.json")["vectors"], ids=lambda v: v["name"])
def test_randrange(vector: dict[str, Any]) -> None:
    seed = bytes.fromhex(vector["seed_hex"])
    stream, engine = reference.Stream(seed, vector["nonce"]), FairRng(seed, vector["nonce"])
    for call in vector["calls"]:
        n = int(call["n"])
        assert stream.randrange(n) == engine.randrange(n) == int(call["result"])
    assert stream.read == 8 * sum(len(call["words"]) for call in vector["calls"])


def test_a_randrange_vector_shows_rejections() -> None:
    assert sum(v["rejected_words"] for v in load("randrange.json")["vectors"]) >= 2


@pytest.mark.parametrize("vector", load("shuffle.json")["vectors"], ids=str)
def test_the_shuffle(vector: dict[str, Any]) -> None:
    stream = reference.Stream(bytes.fromhex(vector["seed_hex"]), vector["nonce"])
    assert reference.shuffle(stream, vector["items"]) == vector["result"]


@pytest.mark.parametrize("vector", load("setup.json")["vectors"], ids=str)
def test_each_games_random_setup(vector: dict[str, Any]) -> None:
    """The document's set-up draws give the orders the engine recorded."""
    seed, events = bytes.fromhex(vector["seed_hex"]), vector["events"]
    if "seed_text" in vector:
        assert vector["seed_text"].encode() == seed
    game, started = vector["game"], events[0]
    if game == "deck-of-spies":
        expected = reference.deck_of_spies(seed)
        assert started["spy_deck"] == expected["spy_deck"]
        assert started["draw_deck"] == expected["draw_deck"]
        assert events[1] == {"type": "cards_drawn", "cards": expected["hand"], "count": 5}
    elif game == "black-spy":
        expected = reference.black_spy(seed, vector["players"])
        assert started["dealer"] == expected["dealer"]
        assert events[1]["hands"] == expected["hands"]
    else:
        expected = reference.spies_and_lies(seed, vector["options"])
        assert {key: started[key] for key in expected} == expected


BOT_STREAM = load("bot-stream.json")


@pytest.mark.parametrize("vector", BOT_STREAM["generators"], ids=str)
def test_the_bot_stream(vector: dict[str, Any]) -> None:
    seed, seat, v = bytes.fromhex(vector["seed_hex"]), vector["seat"], vector["v"]
    for index, item in enumerate(vector["blocks"]):
        assert item["message"] == f"spies-bot/1:{seat}:{v}:{index}"
        assert reference.bot_block(seed, seat, v, index).hex() == item["bytes_hex"]
    stream, engine = reference.BotStream(seed, seat, v), bot_stream(seed, seat, v)
    for call in vector["calls"]:
        n = int(call["n"])
        assert stream.randrange(n) == engine.randrange(n) == int(call["result"])
    assert stream.read == 8 * sum(len(call["words"]) for call in vector["calls"])
    assert any(not word["accepted"] for call in vector["calls"] for word in call["words"]) or (
        stream.blocks > 1
    )


@pytest.mark.parametrize("vector", BOT_STREAM["random_bot"], ids=str)
def test_random_2_picks_from_the_legal_set_in_canonical_order(vector: dict[str, Any]) -> None:
    """The document's rule, from the commands in the build's order and in reverse, gives the
    sorted list and the pick the engine's ``random@2`` made."""
    seed, seat, v = bytes.fromhex(vector["seed_hex"]), vector["seat"], vector["v"]
    listed = vector["legal_listed"]
    for order in (listed, listed[::-1]):
        ordered, pick = reference.random_2(seed, seat, v, order)
        assert ordered == vector["legal_sorted"]
        assert pick == vector["pick"] == ordered[int(vector["randrange"]["result"])]
    assert listed != vector["legal_sorted"]


def test_the_bot_stream_vectors_cover_every_game() -> None:
    questions = BOT_STREAM["random_bot"]
    assert {q["game"] for q in questions} == {"deck-of-spies", "black-spy", "spies-and-lies"}
    readme = next(q for q in questions if q["seed_hex"] == b"readme-demo".hex())
    assert (readme["seat"], readme["v"], len(readme["legal_sorted"])) == (0, 4, 23)
    assert readme["pick"] == '{"cards":["4C","2S"],"retire":["2C","2D"],"type":"counter"}'
    # the example of docs/protocol.md's "Bot moves" is this question, word for word
    [block] = [g["blocks"][0] for g in BOT_STREAM["generators"] if (g["seat"], g["v"]) == (0, 4)]
    document = (OUT.parent / "protocol.md").read_text("utf-8")
    example = document.split("## Bot moves", 1)[1].split("**The version 1 generator**", 1)[0]
    assert block["message"] == "spies-bot/1:0:4:0" and f"`{block['bytes_hex']}`" in example
    assert readme["randrange"]["words"][0]["word_hex"] == block["bytes_hex"][:16]
    assert readme["pick"] in example and readme["legal_sorted"][3] in example


@settings(max_examples=50, deadline=None)
@given(st.binary(min_size=1, max_size=40), st.integers(0, 5), st.integers(0, 2000))
def test_the_bot_stream_is_the_documents(seed: bytes, seat: int, v: int) -> None:
    stream, engine = reference.BotStream(seed, seat, v), bot_stream(seed, seat, v)
    sizes = (1, 2, 3, 60, 2**31 + 1, 2**63 + 1)
    assert [stream.randrange(n) for n in sizes] == [engine.randrange(n) for n in sizes]


@pytest.mark.parametrize("vector", load("bot-rng.json")["vectors"], ids=str)
def test_the_version_1_bot_generator(vector: dict[str, Any]) -> None:
    seed, seat, version = bytes.fromhex(vector["seed_hex"]), vector["seat"], vector["version"]
    words = reference.key_words(int(vector["seed_int_hex"], 16))
    assert [f"{word:08x}" for word in words] == vector["init_key_words"]
    twister = reference.bot_generator(seed, seat, version)
    assert list(reference.outputs(twister, 6)) == vector["uint32_outputs"]
    engine = bot_rng(seed, seat, version)
    twister = reference.bot_generator(seed, seat, version)
    for n, result in vector["randrange"]:
        assert twister.randrange(n) == engine.randrange(n) == result


@settings(max_examples=50, deadline=None)
@given(st.binary(min_size=1, max_size=40), st.integers(0, 5), st.integers(0, 2000))
def test_the_bot_generator_is_cpythons(seed: bytes, seat: int, version: int) -> None:
    twister, engine = reference.bot_generator(seed, seat, version), bot_rng(seed, seat, version)
    sizes = (1, 2, 3, 60, 2**31 + 1)
    assert [twister.randrange(n) for n in sizes] == [engine.randrange(n) for n in sizes]


@pytest.mark.parametrize("value", [0, 1, 2**32 - 1, 2**32, 2**40 + 5, 2**224 + 7, 2**256 - 1])
def test_the_key_has_as_many_words_as_the_integer_needs(value: int) -> None:
    """A digest with leading zero bits seeds with fewer words (at least one)."""
    twister, engine = reference.Twister(reference.key_words(value)), random.Random(value)
    assert list(reference.outputs(twister, 5)) == [engine.getrandbits(32) for _ in range(5)]
