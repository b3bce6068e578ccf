"""The OpenAPI document matches what the API does: schemathesis generates requests from it
and checks every answer (no 5xx, documented status codes, content types and bodies)
against the real app over HTTP on 127.0.0.1."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from flask import Flask
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import positive_data_acceptance

from ginrules.web import create_app
from ginrules.web.openapi import document
from tests.web_helpers import serve_at_own_address


@pytest.fixture(scope="module")
def api_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("openapi")

    def make(base: str) -> Flask:
        return create_app(
            {
                "INSTANCE_PATH": folder / "instance",
                "DATABASE_URL": f"sqlite:///{folder / 'api.db'}",
                "PUBLIC_BASE_URL": base,
                "SECRET_KEY": "openapi-test",
                "UPGRADE_ON_START": True,
                "RATE_LIMIT": "100000 per minute",
            }
        )

    with serve_at_own_address(make) as (base, app):
        yield base
    app.extensions["ginrules.store"].close()


#: The document as the app builds it; each call goes to the live test server.
schema = schemathesis.openapi.from_dict(document("http://127.0.0.1"))


@schema.parametrize()
@settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
def test_the_api_does_what_its_openapi_document_says(case: Any, api_server: str) -> None:
    excluded = []
    if case.operation.label in _CONTENT_CHECKED:
        # A ruleset's validity (YAML text, knob ranges and cross-field rules) and
        # whether a named ruleset exists are beyond what a schema can say: a 4xx
        # for a schema-valid request is right there, and still checked for shape.
        excluded.append(positive_data_acceptance)
    case.call_and_validate(base_url=api_server, excluded_checks=excluded)


_CONTENT_CHECKED = {"POST /api/houserules", "PUT /api/houserules/{slug}", "GET /api/diff"}


def test_the_served_document_is_the_one_tested(api_server: str) -> None:
    import json
    import urllib.request

    with urllib.request.urlopen(f"{api_server}/api/openapi.json", timeout=30) as response:
        served = json.load(response)
    assert served["openapi"] == "3.1.0"
    assert served["paths"] == document("http://127.0.0.1")["paths"]
    loaded = schemathesis.openapi.from_dict(served)
    operations = {f"{op.method.upper()} {op.path}" for op in _operations(loaded)}
    for expected in (
        "GET /api/rulesets",
        "POST /api/houserules",
        "PUT /api/houserules/{slug}",
        "GET /api/diff",
        "GET /rules/{name}/qr.png",
    ):
        assert expected in operations


def _operations(loaded: Any) -> list[Any]:
    found = []
    for result in loaded.get_all_operations():
        found.append(result.ok())
    return found
