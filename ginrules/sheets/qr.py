"""QR codes that open a ruleset's online copy: SVG for pages and print, PNG to download."""

from __future__ import annotations

import base64
import io
from functools import lru_cache

import qrcode
import qrcode.constants
from qrcode.image.pil import PilImage
from qrcode.image.svg import SvgPathImage

#: Medium error correction: survives a fold or a coffee ring on a printed sheet.
_ERROR_CORRECTION = qrcode.constants.ERROR_CORRECT_M


def _code(url: str, box_size: int) -> qrcode.QRCode:  # type: ignore[type-arg]
    code = qrcode.QRCode(error_correction=_ERROR_CORRECTION, box_size=box_size, border=4)
    code.add_data(url)
    code.make(fit=True)
    return code


@lru_cache(maxsize=256)
def qr_svg(url: str) -> str:
    """The QR code of ``url`` as a standalone SVG document (scales to any size)."""
    image = _code(url, 10).make_image(image_factory=SvgPathImage)
    return image.to_string(encoding="unicode")


@lru_cache(maxsize=256)
def qr_png(url: str, box_size: int = 10) -> bytes:
    """The QR code of ``url`` as a PNG, ``box_size`` pixels a module."""
    image = _code(url, box_size).make_image(image_factory=PilImage)
    buffer = io.BytesIO()
    image.save(buffer)
    return buffer.getvalue()


def qr_data_uri(url: str) -> str:
    """The SVG QR code as a ``data:`` URI for an ``<img>`` in a self-contained page."""
    encoded = base64.b64encode(qr_svg(url).encode()).decode("ascii")
    return f"data:image/svg+xml;base64,{encoded}"
