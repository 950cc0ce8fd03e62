"""Salted scrypt hashes for seat passwords: hash once, verify in constant time."""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import unicodedata

# scrypt parameters (RFC 7914): n=2**14, r=8, p=1 costs ~16 MiB and tens of
# milliseconds, which is plenty for a password mailed in an order.
SCRYPT_N = 2**14
SCRYPT_R = 8
SCRYPT_P = 1
_KEY_LEN = 32
_SALT_LEN = 16
_SCHEME = "scrypt"


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _normalise(password: str) -> bytes:
    # Mail clients may compose the same visible text in NFC or NFD.
    return unicodedata.normalize("NFC", password).encode("utf-8")


def _derive(password: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    return hashlib.scrypt(
        _normalise(password), salt=salt, n=n, r=r, p=p, dklen=_KEY_LEN, maxmem=256 * 1024 * 1024
    )


def hash_secret(password: str, *, n: int = SCRYPT_N, r: int = SCRYPT_R, p: int = SCRYPT_P) -> str:
    """Return ``scrypt$n$r$p$salt$hash`` for storing in ``seats.secret_hash``."""
    if not password:
        raise ValueError("a seat password must not be empty")
    salt = os.urandom(_SALT_LEN)
    digest = _derive(password, salt, n, r, p)
    return f"{_SCHEME}${n}${r}${p}${_b64(salt)}${_b64(digest)}"


def verify_secret(password: str, stored: str | None) -> bool:
    """True when ``password`` matches the stored hash; False for any malformed hash."""
    if not stored or not password:
        return False
    try:
        scheme, n_text, r_text, p_text, salt_text, digest_text = stored.split("$")
        if scheme != _SCHEME:
            return False
        n, r, p = int(n_text), int(r_text), int(p_text)
        salt, expected = _unb64(salt_text), _unb64(digest_text)
        actual = _derive(password, salt, n, r, p)
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(actual, expected)
