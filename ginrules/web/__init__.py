"""The ginrules web site and JSON API.

``create_app()`` builds the Flask app from the environment (see
:mod:`ginrules.web.settings`); ``ginrules serve`` runs it under gunicorn and
``ginrules db upgrade`` creates or upgrades the database schema.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import jinja2
from flask import Flask
from flask.templating import Environment

from ginrules.sheets import templating


class GinrulesFlask(Flask):
    """Flask whose template environment is made like the sheets'
    (:mod:`ginrules.sheets.templating`): the site's templates first, then the sheet
    templates, with the same filters and translation functions."""

    def create_jinja_environment(self) -> Environment:
        env = templating.configure(super().create_jinja_environment())
        env.loader = jinja2.ChoiceLoader([env.loader, templating.sheet_loader()])  # type: ignore[list-item]
        return env


def create_app(overrides: Mapping[str, Any] | None = None) -> Flask:
    """The site, configured from the environment and then ``overrides``."""
    from ginrules.web import db_health, forms, locales, request_guards, security, settings, storage
    from ginrules.web.views import (
        api,
        bot_game,
        builder,
        houserules,
        prints,
        rulesets,
        table_api,
        table_files,
        table_live,
        table_pages,
        yaml_check,
    )

    config = settings.load(overrides)
    app = GinrulesFlask(
        __name__,
        template_folder="templates",
        static_folder=str(Path(__file__).parent / "static"),
        static_url_path="/static",
        instance_path=str(config["INSTANCE_PATH"]),
    )
    app.config.update(config)
    storage.init_app(app)
    app.jinja_env.filters["code_spans"] = forms.code_spans
    app.jinja_env.filters["departure"] = forms.departure_words
    security.install(app)
    db_health.install(app)
    request_guards.install(app)
    locales.install(app)  # first of all: every answer, refusals too, in the reader's language
    for area in (rulesets, prints, builder, houserules, api, table_api, table_live, table_pages):
        app.register_blueprint(area.blueprint)
    app.register_blueprint(table_files.blueprint)
    app.register_blueprint(bot_game.blueprint)
    app.register_blueprint(bot_game.api)
    app.register_blueprint(yaml_check.blueprint)
    security.csrf.exempt(api.blueprint)
    security.csrf.exempt(table_api.blueprint)
    security.csrf.exempt(bot_game.api)
    return app
