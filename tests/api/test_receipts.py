"""Signed receipts (docs/protocol.md, receipts): every answer that appends carries one, it
verifies with a key of ``GET /keys``, the key is the database's (it outlives a restart and
every process on the database signs with it), a rotation keeps the old key listed, and
verify fails an export that does not hold a receipt's head at its seq."""

from __future__ import annotations

import base64
import io
import json
import threading
from pathlib import Path
from typing import Any

import msgspec
import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from litestar import Litestar
from litestar.testing import TestClient

from spies_api import Settings, create_app
from spies_api.service.keys import ReceiptKeys
from spies_core.registry import GAMES
from spies_replay.cli import main
from spies_replay.receipts import KeyList, Receipt
from spies_replay.transfer import read_export
from spies_replay.verify import verify_log
from tests.support.api import bearer, create, finished
from tests.support.backends import fresh_backend


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def signed_by_listed_key(receipt: dict[str, Any], keys: dict[str, Any]) -> bool:
    """Whether ``receipt``'s signature is its listed key's over the message the protocol
    defines (written out here from docs/protocol.md, not taken from the engine)."""
    listed = {key["key_id"]: key for key in keys["keys"]}
    key = listed.get(receipt["key_id"])
    if key is None or key["algorithm"] != "ed25519":
        return False
    message = (
        f"spies-receipt/1\n{receipt['game_id']}\n{receipt['seq']}\n{receipt['head_hash']}"
    ).encode()
    try:
        public = Ed25519PublicKey.from_public_bytes(_unb64(key["public_key"]))
        public.verify(_unb64(receipt["signature"]), message)
    except InvalidSignature:
        return False
    return True


def head_of(client: TestClient[Litestar], game_id: str) -> tuple[int, str]:
    summary = client.get(f"/games/{game_id}").json()
    return summary["version"], summary["head_hash"]


def test_every_appending_answer_carries_a_receipt_that_verifies_against_get_keys(
    client: TestClient[Litestar],
) -> None:
    keys = client.get("/keys").json()
    assert len(keys["keys"]) == 1 and keys["keys"][0]["algorithm"] == "ed25519"
    created = create(
        client,
        {
            "game": "spies-and-lies",
            "players": 2,
            "seats": [{"type": "creator", "name": "Ada"}, {"type": "open"}],
        },
    )
    game_id = created["id"]
    receipts: list[dict[str, Any]] = [created["receipt"]]
    assert (created["receipt"]["seq"], created["receipt"]["head_hash"]) == head_of(client, game_id)

    joined = client.post(f"/games/{game_id}/join", json={"name": "Grace"}).json()
    receipts.append(joined["receipt"])
    assert (joined["receipt"]["seq"], joined["receipt"]["head_hash"]) == head_of(client, game_id)

    tokens = {0: created["seats"][0]["token"], 1: joined["token"]}
    legal = client.get(f"/games/{game_id}/legal", headers=bearer(tokens[0])).json()
    answered = client.post(
        f"/games/{game_id}/commands",
        headers=bearer(tokens[0]),
        json={"command": legal["commands"][0]},
    ).json()
    receipts.append(answered["receipt"])
    assert answered["receipt"]["seq"] == answered["version"]
    assert (answered["receipt"]["seq"], answered["receipt"]["head_hash"]) == head_of(
        client, game_id
    )

    for seat, token in tokens.items():
        handed = client.post(
            f"/games/{game_id}/seats/{seat}/bot", json={"bot": "random"}, headers=bearer(token)
        )
        assert handed.status_code == 200, handed.text
        receipts.append(handed.json()["receipt"])
    finished(client, game_id)
    rematch = client.post(f"/games/{game_id}/rematch", headers=bearer(tokens[0])).json()
    assert rematch["receipt"]["game_id"] == rematch["id"]
    assert (rematch["receipt"]["seq"], rematch["receipt"]["head_hash"]) == head_of(
        client, rematch["id"]
    )

    for receipt in [*receipts, rematch["receipt"]]:
        assert signed_by_listed_key(receipt, keys), receipt
        assert receipt["key_id"] == keys["keys"][0]["key_id"]
    # The export holds every receipt's head at its seq; verify agrees, with the keys.
    export = client.get(f"/games/{game_id}/export").content
    record, rows = read_export(io.StringIO(export.decode()))
    hashes = {row.seq: row.hash for row in rows}
    assert all(hashes[r["seq"]] == r["head_hash"] for r in receipts)
    decoded = [msgspec.convert(r, Receipt) for r in receipts]
    report = verify_log(
        GAMES, record, rows, receipts=decoded, keys=msgspec.convert(keys, KeyList)
    ).report
    assert report.ok, report.problem


def test_a_forged_or_foreign_receipt_fails_verify(client: TestClient[Litestar]) -> None:
    created = create(client, {"game": "deck-of-spies", "seed": "receipts"})
    game_id, token = created["id"], created["seats"][0]["token"]
    receipt = created["receipt"]
    client.post(f"/games/{game_id}/seats/0/bot", json={"bot": "random"}, headers=bearer(token))
    finished(client, game_id)
    keys = msgspec.convert(client.get("/keys").json(), KeyList)
    record, rows = read_export(io.StringIO(client.get(f"/games/{game_id}/export").text))

    def verdict(given: dict[str, Any], with_keys: bool = True) -> str | None:
        report = verify_log(
            GAMES,
            record,
            rows,
            receipts=[msgspec.convert(given, Receipt)],
            keys=keys if with_keys else None,
        ).report
        return None if report.problem is None else report.problem.code

    assert verdict(receipt) is None
    # another head at that seq: the server's word for a log this export is not
    forged_head = {**receipt, "head_hash": "0" * 64}
    assert verdict(forged_head, with_keys=False) == "receipt-mismatch"
    assert verdict(forged_head) == "receipt-signature-invalid"
    # a signature of another message (the one of seq 1 moved to seq 2)
    moved = {**receipt, "seq": 2, "head_hash": rows[1].hash}
    assert verdict(moved) == "receipt-signature-invalid"
    assert verdict(moved, with_keys=False) is None  # without keys, only the head is checked
    # a receipt of a key the server never listed
    assert verdict({**receipt, "key_id": "0123456789abcdef"}) == "receipt-key-unknown"
    # a genuine receipt of another game
    other = create(client, {"game": "deck-of-spies", "seed": "other"})["receipt"]
    assert verdict(other) == "receipt-mismatch"
    # a genuine receipt past the log's end: the log was cut short
    past = {**receipt, "seq": len(rows) + 1}
    assert verdict(past, with_keys=False) == "receipt-mismatch"


def test_the_key_outlives_a_restart_and_two_processes_share_it(tmp_path: Path) -> None:
    settings = Settings(db_path=tmp_path / "spies.db", log_json=True)
    with TestClient(app=create_app(settings)) as first:
        one = create(first, {"game": "deck-of-spies"})["receipt"]["key_id"]
        with TestClient(app=create_app(settings)) as second:
            two = create(second, {"game": "deck-of-spies"})["receipt"]["key_id"]
            listed = second.get("/keys").json()
    with TestClient(app=create_app(settings)) as restarted:
        three = create(restarted, {"game": "deck-of-spies"})["receipt"]["key_id"]
    assert one == two == three
    assert [key["key_id"] for key in listed["keys"]] == [one]


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_processes_racing_to_make_the_first_key_agree(backend: str, tmp_path: Path) -> None:
    with fresh_backend(backend, tmp_path) as database:
        stores = [database.open() for _ in range(4)]
        try:
            start = threading.Barrier(len(stores))
            found: list[str] = []

            def open_keys(store: Any) -> None:
                start.wait()
                found.append(ReceiptKeys.open(store).signer.key_id)

            threads = [threading.Thread(target=open_keys, args=(s,)) for s in stores]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            assert len(found) == len(stores) and len(set(found)) == 1
            assert [k.key_id for k in ReceiptKeys.open(stores[0]).listed().keys] == found[:1]
        finally:
            for store in stores:
                store.close()


def test_rotation_keeps_the_old_key_listed_and_its_receipts_verifying(tmp_path: Path) -> None:
    db = tmp_path / "spies.db"
    settings = Settings(db_path=db, log_json=True)
    with TestClient(app=create_app(settings)) as before:
        old = create(before, {"game": "deck-of-spies"})["receipt"]
    out, err = io.StringIO(), io.StringIO()
    assert main(["--db", str(db), "keys", "rotate"], stdout=out, stderr=err) == 0, err.getvalue()
    with TestClient(app=create_app(settings)) as after:
        new = create(after, {"game": "deck-of-spies"})["receipt"]
        keys = after.get("/keys").json()
    assert new["key_id"] != old["key_id"]
    assert [key["key_id"] for key in keys["keys"]] == [old["key_id"], new["key_id"]]
    assert signed_by_listed_key(old, keys) and signed_by_listed_key(new, keys)
    listed = io.StringIO()
    assert main(["--db", str(db), "keys", "list"], stdout=listed) == 0
    assert f"{new['key_id']}  current" in listed.getvalue()
    assert f"{old['key_id']}  retired" in listed.getvalue()


def test_verify_receipt_on_the_command_line(client: TestClient[Litestar], tmp_path: Path) -> None:
    created = create(client, {"game": "deck-of-spies", "seed": "cli"})
    game_id, token = created["id"], created["seats"][0]["token"]
    client.post(f"/games/{game_id}/seats/0/bot", json={"bot": "random"}, headers=bearer(token))
    finished(client, game_id)
    export = tmp_path / "game.jsonl"
    export.write_bytes(client.get(f"/games/{game_id}/export").content)
    keys = tmp_path / "keys.json"
    keys.write_text(client.get("/keys").text)
    good = tmp_path / "good.json"
    good.write_text(json.dumps(created["receipt"]))
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**created["receipt"], "head_hash": "1" * 64}))

    def run(*args: str) -> tuple[int, dict[str, Any]]:
        out = io.StringIO()
        status = main(["--json", "verify", "--file", str(export), *args], stdout=out)
        return status, json.loads(out.getvalue())

    status, report = run("--receipt", str(good), "--keys", str(keys))
    assert status == 0 and report["ok"], report
    status, report = run("--receipt", str(good), "--receipt", str(bad))
    assert status == 1 and report["games"][0]["problem"]["code"] == "receipt-mismatch"
    status, report = run("--receipt", str(bad), "--keys", str(keys))
    assert report["games"][0]["problem"]["code"] == "receipt-signature-invalid"
    err = io.StringIO()
    assert main(["verify", "--file", str(export), "--receipt", str(keys)], stderr=err) == 2
    assert "is not a receipt" in err.getvalue()


def test_get_keys_needs_no_token_and_refuses_other_methods(client: TestClient[Litestar]) -> None:
    assert client.get("/keys", headers=bearer("nonsense")).status_code == 200
    assert client.post("/keys").status_code == 405
