"""The ginrules web site and JSON API.

``create_app()`` builds the Flask app from the environment (see
:mod:`ginrules.web.settings`); ``ginrules serve`` runs it under gunicorn and
``ginrules db upgrade`` creates or upgrades the database schema.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import Flask

from ginrules.rules import locate
from ginrules.words.values import value_words


def create_app(overrides: Mapping[str, Any] | None = None) -> Flask:
    """The site, configured from the environment and then ``overrides``."""
    from ginrules.web import api, forms, pages, security, settings
    from ginrules.web.storage import Store

    config = settings.load(overrides)
    app = Flask(
        __name__,
        template_folder=str(locate.templates_dir()),
        static_folder=str(Path(__file__).parent / "static"),
        static_url_path="/static",
        instance_path=str(config["INSTANCE_PATH"]),
    )
    app.config.update(config)
    app.extensions["ginrules.store"] = Store(str(config["DATABASE_URL"]))
    if app.config.get("UPGRADE_ON_START"):
        app.extensions["ginrules.store"].upgrade()
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True
    app.jinja_env.filters["code_spans"] = forms.code_spans
    app.jinja_env.filters["words"] = value_words
    app.jinja_env.filters["departure"] = forms.departure_words
    security.install(app)
    app.register_blueprint(pages.blueprint)
    app.register_blueprint(api.blueprint)
    security.csrf.exempt(api.blueprint)
    return app
