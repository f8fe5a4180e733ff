"""The plane's key: one secret from a key file or the environment, never stored in the database.

Two keys are derived from it: the HMAC key of subject-scoped tokens and the Ed25519 key that signs checkpoints.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from dataclasses import dataclass
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from pp_graph.errors import ConfigError, LedgerError

KEY_ENV = "PP_GRAPH_PLANE_KEY"  # hex secret
KEY_FILE_ENV = "PP_GRAPH_PLANE_KEY_FILE"  # path of a file holding the hex secret
MAX_KEY_FILE = 4096  # a hex key and a newline need < 200 bytes; never read an unbounded stream (/dev/zero)


@dataclass(frozen=True)
class PlaneKeys:
    secret: bytes

    @property
    def token_key(self) -> bytes:
        return hmac.new(self.secret, b"pp-graph plane token key", hashlib.sha256).digest()

    @property
    def signing_key(self) -> Ed25519PrivateKey:
        seed = hmac.new(self.secret, b"pp-graph plane checkpoint key", hashlib.sha256).digest()
        return Ed25519PrivateKey.from_private_bytes(seed)

    @property
    def public_key_hex(self) -> str:
        return self.signing_key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()

    @property
    def fingerprint(self) -> str:
        """What a database records to recognise its key: a one-way digest of the (public) checkpoint key."""
        raw = self.signing_key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
        return "sha256:" + hashlib.sha256(b"pp-graph plane key fingerprint\x00" + raw).hexdigest()


def _parse(text: str, source: str) -> PlaneKeys:
    try:
        secret = bytes.fromhex(text.strip())
    except ValueError:
        raise ConfigError(f"{source}: the plane key must be hex (64 hex digits)") from None
    if len(secret) < 16:
        raise ConfigError(f"{source}: the plane key must be at least 16 bytes (32 hex digits)")
    return PlaneKeys(secret)


def create_key_file(path: Path) -> PlaneKeys:
    """Write a fresh random key readable by the owner only; refuses to overwrite."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    text = secrets.token_hex(32)
    with os.fdopen(fd, "w") as fh:
        fh.write(text + "\n")
    return _parse(text, str(path))


def load_keys(key: bytes | str | None = None, key_file: str | Path | None = None) -> PlaneKeys:
    """From ``key`` (bytes or hex), else ``key_file``, else $PP_GRAPH_PLANE_KEY, else $PP_GRAPH_PLANE_KEY_FILE."""
    if isinstance(key, bytes):
        if len(key) < 16:
            raise ConfigError("the plane key must be at least 16 bytes")
        return PlaneKeys(key)
    if isinstance(key, str):
        return _parse(key, "key")
    path = key_file or os.environ.get(KEY_FILE_ENV)
    if path is None and os.environ.get(KEY_ENV):
        return _parse(os.environ[KEY_ENV], f"${KEY_ENV}")
    if path is None:
        raise ConfigError(f"no plane key: give --key-file (key_file=) or set ${KEY_ENV} (hex) or ${KEY_FILE_ENV}")
    return _parse(read_key_file(Path(path)), str(path))


def read_key_file(path: Path) -> str:
    """The key file's text, read with a bound: larger files, NUL bytes or non-UTF-8 are refused, not parsed."""
    try:
        with open(path, "rb") as fh:
            data = fh.read(MAX_KEY_FILE + 1)
    except OSError as e:
        raise ConfigError(f"{path}: the key file cannot be read ({e.strerror})") from e
    if len(data) > MAX_KEY_FILE:
        raise ConfigError(f"{path}: not a key file (more than {MAX_KEY_FILE} bytes; a key is 64 hex digits)")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not a key file (not UTF-8 text; a key is 64 hex digits)") from None
    if "\x00" in text:
        raise ConfigError(f"{path}: not a key file (it holds NUL bytes; a key is 64 hex digits)")
    return text


def verify_signature(public_hex: str, signature_hex: str, message: bytes) -> None:
    try:
        Ed25519PublicKey.from_public_bytes(bytes.fromhex(public_hex)).verify(bytes.fromhex(signature_hex), message)
    except (InvalidSignature, ValueError) as e:
        raise LedgerError("the checkpoint's signature does not verify") from e
