"""The issue's "done when", end to end: the referee closes a partition, the players confirm it at
the table on his device, the organiser downloads the signed PDF, pdfsig and pyHanko accept its
signature, and one changed byte makes the verification page and the command reject it."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.urls import reverse

from scoring.models import Confirmation, Partition, ProtocolDocument

from protocols_world import PINS, play_short

# Committed, so that the verify_protocol command run as its own process sees the documents.
pytestmark = pytest.mark.django_db(transaction=True)

BASE_DIR = Path(__file__).resolve().parents[2]


def urls(world):
    t, table = world["tournament"], world["table"]
    args = [t.slug, world["tour"].number, table.number]
    return {"confirm": reverse("partition-confirm", args=args), "pdf": reverse("partition-protocol-pdf", args=args),
            "print": reverse("partition-protocol", args=args)}


def verify_command(path, database_url) -> tuple[int, str]:
    """``manage.py verify_protocol`` as a separate process, as someone offline would run it."""
    done = subprocess.run([sys.executable, "manage.py", "verify_protocol", str(path)], cwd=BASE_DIR,
                          env={**os.environ, "DATABASE_URL": database_url}, capture_output=True, text=True,
                          timeout=120)
    return done.returncode, done.stdout + done.stderr


@pytest.mark.pdfsig
def test_referee_closes_players_confirm_organiser_downloads_and_a_changed_byte_is_caught(
        world, client, tmp_path, database_url_for_processes):
    u = urls(world)
    play_short(world["ref"], world["p1"].pk)  # the referee records the partition to its end
    assert Partition.objects.get(pk=world["p1"].pk).is_finished

    # At the table, on the referee's device: each player types his PIN, then the referee confirms.
    client.force_login(world["ref"])
    page = client.get(u["confirm"])
    assert page.status_code == 200
    assert "Confirm with PIN" in page.content.decode()
    version = page.context["state"]["version"]
    for seat in (1, 2, 3, 4):
        response = client.post(u["confirm"], {"seat": seat, "pin": PINS[seat], "version": version}, follow=True)
        assert "Confirmed by" in response.content.decode()
    response = client.post(u["confirm"], {"seat": 0, "version": version}, follow=True)
    assert "the protocol is frozen" in response.content.decode()
    assert Confirmation.objects.filter(partition=world["p1"], version=version).count() == 5

    # The fifth confirmation issued the signed PDF; the organiser downloads it.
    client.force_login(world["org"])
    response = client.get(u["pdf"])
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    pdf = b"".join(response) if response.streaming else response.content
    document = ProtocolDocument.objects.get(partition=world["p1"])
    assert document.confirmed and document.version == version
    assert pdf[:5] == b"%PDF-" and len(pdf) == document.size
    path = tmp_path / "protocol.pdf"
    path.write_bytes(pdf)

    # pdfsig: a valid signature over the whole document; only the self-signed issuer is unknown.
    out = subprocess.run(["pdfsig", str(path)], capture_output=True, text=True).stdout
    assert "Signature Field Name: Protocol" in out
    assert "Signature Type: ETSI.CAdES.detached" in out
    assert "Total document signed" in out
    assert "Signature Validation: Signature is Valid." in out
    assert re.search(r"Certificate Validation: Certificate issuer (is unknown|isn't Trusted)", out), out

    # pyHanko's own validator, with the tournament's certificate as the only trust root.
    certificate = tmp_path / "tournament.pem"
    certificate.write_bytes(client.get(reverse("protocol-document-certificate", args=[document.code])).content)
    validated = subprocess.run([str(Path(sys.executable).with_name("pyhanko")), "sign", "validate",
                                "--trust", str(certificate), "--trust-replace", "--executive-summary", str(path)],
                               capture_output=True, text=True, timeout=120)
    assert validated.returncode == 0, validated.stdout + validated.stderr
    assert validated.stdout.strip().endswith(":VALID")

    # The verification page and the command accept the file as it was issued...
    client.logout()
    with path.open("rb") as f:
        page = client.post(reverse("protocol-verify"), {"file": f})
    assert page.context["result"].status == "genuine"
    assert 'data-status="genuine"' in page.content.decode()
    call_command_status = _call(path)
    assert call_command_status[0] == 0 and call_command_status[1].startswith("GENUINE")

    # ... and reject it with one byte changed, whichever byte it is.
    for where in (len(pdf) // 3, document.size - 200):
        tampered = bytearray(pdf)
        tampered[where] ^= 0x01
        bad = tmp_path / f"tampered-{where}.pdf"
        bad.write_bytes(bytes(tampered))
        with bad.open("rb") as f:
            page = client.post(reverse("protocol-verify"), {"file": f})
        assert page.context["result"].status == "tampered", page.context["result"].details
        assert "Tampered" in page.content.decode()
        status, output = _call(bad)
        assert status == 1 and output.startswith("TAMPERED"), output
        assert "Signature is Valid." not in subprocess.run(["pdfsig", str(bad)], capture_output=True,
                                                           text=True).stdout

    # The offline command, as its own process, says the same.
    status, output = verify_command(path, database_url_for_processes)
    assert status == 0 and "GENUINE" in output, output
    status, output = verify_command(bad, database_url_for_processes)
    assert status == 1 and "TAMPERED" in output


def _call(path) -> tuple[int, str]:
    from io import StringIO

    out = StringIO()
    try:
        call_command("verify_protocol", str(path), stdout=out)
    except SystemExit as exit:
        return int(exit.code), out.getvalue()
    return 0, out.getvalue()
