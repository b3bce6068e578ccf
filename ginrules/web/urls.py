"""Every public URL of a ruleset, built from ``PUBLIC_BASE_URL`` (never the Host header).

A saved house rule with a table language gives its share link and QR codes in that
language (``?lang=``, :mod:`ginrules.web.locales`): whoever scans it at the table reads
the table's language, whatever their phone speaks."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from flask import current_app, url_for

from ginrules.web import refs
from ginrules.web.locales import QUERY


def absolute(path: str) -> str:
    return str(current_app.config["PUBLIC_BASE_URL"]) + path


def build_url(reference: str, editor: str = "builder.build") -> str:
    """The builder (or the YAML editor) starting from ``reference``."""
    return f"{url_for(editor)}?from={quote(reference, safe='/')}"


def edit_url(slug: str, secret: str) -> str:
    """The private link that edits a house rule."""
    return absolute(url_for("houserules.edit", slug=slug, key=secret))


def links(loaded: refs.Loaded) -> dict[str, str]:
    """Every URL of a ruleset or saved version (absolute, from the public base URL)."""
    if loaded.version is not None:
        version = loaded.version
        return version_links(version.slug, version.number, version.language)
    return _links(loaded.ref, loaded.path, loaded.share_path)


def version_links(slug: str, number: int, language: str | None = None) -> dict[str, str]:
    """Every URL of saved version ``number`` of ``slug``, from those two alone (a page
    of versions parses none of them), the share link and QR codes in the house rule's
    table ``language`` when it has one."""
    found = _links(f"h/{slug}/v{number}", f"/h/{slug}/v{number}", f"/h/{slug}", language)
    found["versions_url"] = absolute(f"/h/{slug}/versions")
    return found


def in_language(path: str, language: str | None) -> str:
    """``path`` opening in ``language`` (``?lang=de``); as it is for None."""
    return f"{path}?{QUERY}={language}" if language else path


def _links(ref: str, path: str, share: str, language: str | None = None) -> dict[str, str]:
    return {
        "page_url": absolute(path),
        "share_url": absolute(in_language(share, language)),
        "sheet_url": absolute(f"{path}/sheet"),
        "pdf_url": absolute(f"{path}/sheet.pdf"),
        "scorepad_url": absolute(f"{path}/scorepad"),
        "scorepad_pdf_url": absolute(f"{path}/scorepad.pdf"),
        # The QR code of ?lang=xx leads to the share link in that language.
        "qr_png_url": absolute(in_language(f"{share}/qr.png", language)),
        "qr_svg_url": absolute(in_language(f"{share}/qr.svg", language)),
        "yaml_url": absolute(f"{path}.yaml"),
        "json_url": absolute(f"{path}.json"),
        "fork_url": absolute(build_url(ref)),
    }


def compiled_json(loaded: refs.Loaded) -> dict[str, Any]:
    """The compiled configuration of a ruleset, as the API and the .json download give it."""
    return {
        "ref": loaded.ref,
        "name": loaded.title,
        "fingerprint": loaded.fingerprint,
        "config": loaded.config.canonical(),
    }
