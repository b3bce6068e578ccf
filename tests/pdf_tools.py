"""Independent checks of printed pages: poppler-utils reads the PDF, zxing-cpp the QR code.

Neither shares code with what made the page (WeasyPrint, qrcode), so a test
that passes through them sees what a printer and a phone would see.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
import zxingcpp
from PIL import Image


def need(tool: str) -> str:
    """The path of a poppler tool; a skip (a failure under CI=true) when it is missing."""
    path = shutil.which(tool)
    if path is None:
        pytest.skip(f"{tool} missing (apt-get install poppler-utils); fails under CI")
    return path


def pdf_info(pdf: Path) -> dict[str, str]:
    out = subprocess.run(
        [need("pdfinfo"), str(pdf)], check=True, capture_output=True, text=True
    ).stdout
    return {
        key.strip(): value.strip()
        for key, _, value in (line.partition(":") for line in out.splitlines())
    }


def pdf_pages(pdf: Path) -> int:
    return int(pdf_info(pdf)["Pages"])


def page_size(pdf: Path) -> tuple[float, float]:
    """The first page's width and height in points."""
    match = re.match(r"([\d.]+) x ([\d.]+) pts", pdf_info(pdf)["Page size"])
    assert match, pdf_info(pdf)
    return float(match[1]), float(match[2])


def pdf_text(pdf: Path) -> str:
    """The text of every page in reading order (column by column), whitespace collapsed."""
    out = subprocess.run(
        [need("pdftotext"), str(pdf), "-"], check=True, capture_output=True, text=True
    ).stdout
    return " ".join(out.split())


def word_heights(pdf: Path) -> list[tuple[float, str]]:
    """Each word's box height in points (about 1.16 times the font size for DejaVu)."""
    out = subprocess.run(
        [need("pdftotext"), "-bbox", str(pdf), "-"], check=True, capture_output=True, text=True
    ).stdout
    pattern = r'<word xMin="[\d.]+" yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">([^<]*)</word>'
    return [(float(y1) - float(y0), word) for y0, y1, word in re.findall(pattern, out)]


def pdf_pngs(pdf: Path, dpi: int = 150) -> list[Path]:
    """Every page as a PNG next to the PDF (``pdftoppm``)."""
    prefix = pdf.with_suffix("")
    subprocess.run([need("pdftoppm"), "-r", str(dpi), "-png", str(pdf), str(prefix)], check=True)
    return sorted(pdf.parent.glob(f"{prefix.name}-*.png"))


def qr_texts(png: Path) -> list[str]:
    """Every QR code zxing-cpp finds in the image."""
    with Image.open(png) as image:
        found = zxingcpp.read_barcodes(image.convert("L"))
    return [code.text for code in found if code.format == zxingcpp.BarcodeFormat.QRCode]
