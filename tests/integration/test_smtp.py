"""The SMTP sender against a real Postfix: plain, STARTTLS, implicit TLS; failure classes."""

from __future__ import annotations

from email.utils import make_msgid

import pytest
from mailstack import MailStack, free_ports

from moderator.mail.smtp import RemoteHostRefused, SendStatus, SmtpConfig, SmtpSender

pytestmark = pytest.mark.integration

FROM = "moderator@example.test"


def message(subject: str, to: str = "bob@example.test") -> bytes:
    return (
        f"From: {FROM}\r\nTo: {to}\r\nSubject: {subject}\r\n"
        f"Message-ID: {make_msgid(domain='example.test')}\r\n"
        "Auto-Submitted: auto-generated\r\n\r\nThe board.\r\n"
    ).encode()


def auth(stack: MailStack) -> dict[str, str]:
    return {"user": stack.address("moderator"), "password": stack.password}


async def test_plain_smtp_delivers(mailstack: MailStack) -> None:
    mailstack.purge("bob")
    cfg = SmtpConfig(host=mailstack.host, port=mailstack.ports.smtp, security="plain")
    async with SmtpSender(cfg) as sender:
        result = await sender.send(message("plain"), FROM, ["bob@example.test"])
    assert result.status is SendStatus.ACCEPTED, result
    assert result.refused == {}
    (delivered,) = await mailstack.wait_for_mail("bob", 1)
    assert b"Subject: plain" in delivered


async def test_starttls_with_the_ca_file(mailstack: MailStack) -> None:
    cfg = SmtpConfig(
        host=mailstack.host,
        port=mailstack.ports.smtp,
        security="starttls",
        ca_file=str(mailstack.ca_cert),
    )
    async with SmtpSender(cfg) as sender:
        assert (await sender.send(message("starttls"), FROM, ["carol@example.test"])).accepted


async def test_submission_port_needs_starttls_and_auth(mailstack: MailStack) -> None:
    cfg = SmtpConfig(
        host=mailstack.host,
        port=mailstack.ports.submission,
        security="starttls",
        ca_file=str(mailstack.ca_cert),
        **auth(mailstack),
    )
    async with SmtpSender(cfg) as sender:
        assert (await sender.send(message("submission"), FROM, ["carol@example.test"])).accepted


async def test_implicit_tls_with_sasl_auth(mailstack: MailStack) -> None:
    mailstack.purge("dave")
    cfg = SmtpConfig(
        host=mailstack.host,
        port=mailstack.ports.smtps,
        security="tls",
        ca_file=str(mailstack.ca_cert),
        **auth(mailstack),
    )
    async with SmtpSender(cfg) as sender:
        result = await sender.send(
            message("smtps", "dave@example.test"), FROM, ["dave@example.test"]
        )
    assert result.accepted, result
    assert b"Subject: smtps" in (await mailstack.wait_for_mail("dave", 1))[0]


async def test_one_connection_serves_a_batch(mailstack: MailStack) -> None:
    cfg = SmtpConfig(host=mailstack.host, port=mailstack.ports.smtp, security="plain")
    async with SmtpSender(cfg) as sender:
        results = [
            await sender.send(message(f"batch {n}"), FROM, ["carol@example.test"]) for n in range(5)
        ]
        assert sender.connections == 1
    assert all(r.accepted for r in results)


async def test_unknown_recipient_is_a_permanent_failure(mailstack: MailStack) -> None:
    cfg = SmtpConfig(host=mailstack.host, port=mailstack.ports.smtp, security="plain")
    async with SmtpSender(cfg) as sender:
        result = await sender.send(message("lost"), FROM, ["nobody@example.test"])
        assert result.status is SendStatus.PERMANENT
        assert result.code == 550
        assert "nobody@example.test" in result.reason
        assert "User unknown" in result.reason
        # The connection survives a refused recipient and carries on.
        assert (await sender.send(message("after"), FROM, ["carol@example.test"])).accepted
        assert sender.connections == 1


async def test_a_mail_over_the_size_limit_is_refused_before_its_data(
    mailstack: MailStack,
) -> None:
    """The sender announces SIZE (RFC 1870): Postfix (message_size_limit 10,240,000)
    refuses the mail at MAIL FROM, permanently, and the connection carries on."""
    cfg = SmtpConfig(host=mailstack.host, port=mailstack.ports.smtp, security="plain")
    big = message("too big") + b"x" * 998 + b"\r\n"
    big += (b"y" * 998 + b"\r\n") * 10_300
    async with SmtpSender(cfg) as sender:
        result = await sender.send(big, FROM, ["carol@example.test"])
        assert result.status is SendStatus.PERMANENT
        assert result.code == 552
        assert "size" in result.reason.lower()
        assert (await sender.send(message("small"), FROM, ["carol@example.test"])).accepted
        assert sender.connections == 1


async def test_some_recipients_refused_is_still_accepted(mailstack: MailStack) -> None:
    cfg = SmtpConfig(host=mailstack.host, port=mailstack.ports.smtp, security="plain")
    async with SmtpSender(cfg) as sender:
        result = await sender.send(
            message("mixed"), FROM, ["carol@example.test", "nobody@example.test"]
        )
    assert result.accepted
    assert set(result.refused) == {"nobody@example.test"}
    assert result.refused["nobody@example.test"][0] == 550


async def test_server_down_is_a_temporary_failure() -> None:
    (port,) = free_ports(1)
    async with SmtpSender(SmtpConfig(host="127.0.0.1", port=port, security="plain")) as sender:
        result = await sender.send(message("nowhere"), FROM, ["bob@example.test"])
    assert result.status is SendStatus.TEMPORARY
    assert "cannot connect" in result.reason


async def test_untrusted_certificate_is_temporary(mailstack: MailStack) -> None:
    """Our configuration is wrong, not the message: keep it for later."""
    cfg = SmtpConfig(host=mailstack.host, port=mailstack.ports.smtps, security="tls")
    async with SmtpSender(cfg) as sender:
        result = await sender.send(message("tls"), FROM, ["bob@example.test"])
    assert result.temporary
    assert "CERTIFICATE_VERIFY_FAILED" in result.reason


async def test_wrong_password_is_temporary(mailstack: MailStack) -> None:
    cfg = SmtpConfig(
        host=mailstack.host,
        port=mailstack.ports.smtps,
        security="tls",
        ca_file=str(mailstack.ca_cert),
        user=mailstack.address("moderator"),
        password="wrong",
    )
    async with SmtpSender(cfg) as sender:
        result = await sender.send(message("auth"), FROM, ["bob@example.test"])
    assert result.temporary
    assert result.code == 535


async def test_remote_hosts_are_refused_unless_allowed() -> None:
    # 192.0.2.0/24 is TEST-NET-1 (RFC 5737): never routed, and never contacted here.
    cfg = SmtpConfig(host="192.0.2.1", port=25, security="plain", timeout=1.0)
    async with SmtpSender(cfg) as sender:
        with pytest.raises(RemoteHostRefused):
            await sender.send(message("remote"), FROM, ["someone@example.com"])
        assert sender.connections == 0
