"""One Jinja set-up for the sheets and the site, with the translation functions of words/."""

from __future__ import annotations

from ginrules.rules.compile import compile_ruleset
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
    with use_locale("de"):
        german = render.sheet_html(ruleset)
        assert render.sheet_html(ruleset) is german
    assert '<html lang="en">' in english and '<html lang="de">' in german
    assert len(render.CACHE) == size + 1
    assert render.sheet_html(ruleset) is english


def test_the_web_fragment_and_the_score_pads_are_cached_per_language_too() -> None:
    ruleset = load_ruleset("hollywood")

    def fragment() -> str:
        return render.sheet_html(ruleset, render.SheetOptions(fragment=True))

    def pad() -> str:
        return render.scorepad_html(ruleset)

    for make in (fragment, pad):
        render.CACHE.clear()
        english = make()
        with use_locale("fr"):
            french = make()
        assert len(render.CACHE) == 2
        assert make() is english
        with use_locale("fr"):
            assert make() is french


def test_the_fingerprint_never_depends_on_the_language() -> None:
    ruleset = load_ruleset("oklahoma")
    fingerprints = set()
    for lang in ("en", "de", "es", "fr"):
        with use_locale(lang):
            fingerprint = compile_ruleset(load_ruleset("oklahoma")).fingerprint
            page = render.sheet_html(ruleset)
        assert f'data-fingerprint="{fingerprint}"' in page
        fingerprints.add(fingerprint)
    assert len(fingerprints) == 1
