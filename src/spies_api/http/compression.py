"""Compressed answers: the app's :class:`~litestar.config.compression.CompressionConfig`.

An answer of at least ``compress_min_bytes`` is gzipped (brotli first when the ``brotli``
package is installed, gzip for a client that takes only gzip) for a client whose
``Accept-Encoding`` takes it, with ``Vary: Accept-Encoding``. Two kinds of answer are left
alone: the event stream (a handler marked :data:`NOT_COMPRESSED`), whose messages a
compressor would hold back until it had enough of them, and the answers
:class:`~spies_api.http.cached.CachedAnswers` keeps (the docs, pages and static files, the web
client's bundle among them), which it gzips once itself.
"""

from __future__ import annotations

from importlib.util import find_spec
from typing import Final

from litestar.config.compression import CompressionConfig

from spies_api.http.cached import CACHED

__all__ = ["NOT_COMPRESSED", "compression_config"]

NOT_COMPRESSED: Final = "not_compressed"
"""The ``opt`` key of a route handler whose answers are never compressed."""


def compression_config(min_bytes: int | None) -> CompressionConfig | None:
    """The app's compression, or ``None`` when ``min_bytes`` is ``None`` (off)."""
    if min_bytes is None:
        return None
    return CompressionConfig(
        backend="brotli" if find_spec("brotli") is not None else "gzip",
        minimum_size=min_bytes,
        gzip_fallback=True,
        # level 6, zlib's default: most of level 9's gain for a fraction of its CPU, per answer
        gzip_compress_level=6,
        exclude=[f"^{CACHED.pattern}"],
        exclude_opt_key=NOT_COMPRESSED,
    )
