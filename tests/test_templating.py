"""One Jinja set-up for the sheets and the site, with the translation functions of words/."""

from __future__ import annotations

from ginrules.rules.load import load_ruleset
from ginrules.sheets import render, templating
from ginrules.web import create_app
from ginrules.words.i18n import current_locale, use_locale


def test_the_site_and_the_sheets_share_the_set_up_and_speak_through_words() -> None:
    app = create_app({"DATABASE_URL": "sqlite://", "SECRET_KEY": "x", "TESTING": True})
    sheets = templating.sheet_environment()
    for env in (app.jinja_env, sheets):
        assert "jinja2.ext.InternationalizationExtension" in env.extensions
        assert env.filters["words"](True) == "yes"
        assert env.from_string("{{ _('knock') }} {% trans %}gin{% endtrans %}").render() == (
            "knock gin"
        )
    with app.test_request_context():
        # The site's loader finds the sheet templates after its own.
        assert (
            app.jinja_env.get_template("sheet.html").filename
            == sheets.get_template("sheet.html").filename
        )
        assert app.jinja_env.get_template("web/home.html") is not None


def test_a_rendered_sheet_is_cached_per_language() -> None:
    ruleset = load_ruleset("classic")
    render.CACHE.clear()
    english = render.sheet_html(ruleset)
    assert current_locale() == "en"
    size = len(render.CACHE)
    with use_locale("de"):  # no German catalogue yet: the same words, its own cache entry
        german = render.sheet_html(ruleset)
    assert german == english
    assert len(render.CACHE) == size + 1
