"""Write tests/hostile/corpus.jsonl: the hostile requests every change must survive.

Run once (``.venv/bin/python scripts/make_hostile_corpus.py``); the output is kept
in git and is the same on every run (a fixed seed, a fixed order). Each line is
one request::

    {"id": "api-types-0001", "kind": "api-types", "method": "POST",
     "path": "/api/houserules", "headers": {...}, "body": "..." | "body_b64": "...",
     "chunked": false, "expect": 403}

``body`` is text (UTF-8 when sent); ``body_b64`` the exact bytes where they are not
UTF-8 (bad bytes, lone surrogates encoded as they would arrive). ``expect`` is
given only where the answer is fixed by the guards (cross-site 403, the relative
308 and its ``location``). A marker ``<<repeat|TEXT|N>>`` stands for TEXT repeated N
times (long bodies, paths and headers, without a long file). Paths, header values
and text bodies hold placeholders the test fills from its seeded site: ``{slug}``,
``{secret}``, ``{table}``, ``{scorer_key}``, ``{bot}``, ``{player_key}``, ``{csrf}``
(a form's CSRF token) and ``{form_token}`` (a fresh one-time form token per request).

tests/test_hostile_corpus.py sends every line to the site on a SQLite file and on
PostgreSQL and asserts no 5xx, an error answer in the right format with a message,
no traceback, and no stored change from a refused request.
"""

from __future__ import annotations

import base64
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final
from urllib.parse import quote, urlencode

ROOT: Final = Path(__file__).resolve().parent.parent
OUT: Final = ROOT / "tests" / "hostile" / "corpus.jsonl"
SCHEMA: Final = ROOT / "ginrules" / "schema" / "ruleset.schema.json"
SEED: Final = 14
EVIL: Final = "evil.example"

JSON: Final = {"Content-Type": "application/json"}
YAML: Final = {"Content-Type": "application/yaml"}
FORM: Final = {"Content-Type": "application/x-www-form-urlencoded"}
SCORER: Final = {**JSON, "X-Scorer-Key": "{scorer_key}"}
PLAYER: Final = {**JSON, "X-Player-Key": "{player_key}"}
EDITOR: Final = {**JSON, "X-Edit-Secret": "{secret}"}

GOOD_YAML: Final = (
    "name: Hostile but fine\nauthor: Tester\ndescription: A plain house rule.\n"
    "extends: classic\nhand_scoring:\n  gin_bonus: 30\n"
)


def rep(text: str, times: int) -> str:
    """A marker the test expands to ``text * times`` (it keeps the corpus file small)."""
    return f"<<repeat|{text}|{times}>>"


#: Values of every JSON type but the right one (and some of the right one, wrong).
WRONG_VALUES: Final[list[Any]] = [
    None,
    True,
    False,
    0,
    -1,
    1.5,
    -(10**30),
    10**400,
    1e308,
    "",
    "x",
    "12",
    " " * 3,
    "\u202eelgnahc",
    rep("a", 5000),
    [],
    [1, 2],
    [[[[]]]],
    {},
    {"a": 1},
]

#: Strange text for a name: direction overrides, zero widths, control characters.
STRANGE_TEXT: Final = [
    "\u202eevil\u202c",
    "Clas\u200bsic",
    "\u200d",
    "\ufeffBOM",
    "\u2066iso\u2069",
    "tab\there",
    "new\nline",
    "bell\x07",
    "del\x7f",
    "nul\x00byte",
    "\U0001f0a1 cards",
    "e\u0301\u0301\u0301\u0301\u0301",
    "<script>alert(1)</script>",
    "{{ 7*7 }}",
    "' OR 1=1 --",
    "a" * 300,
]


class Corpus:
    """The entries, in order, each with a running id in its kind."""

    def __init__(self) -> None:
        self.entries: list[dict[str, Any]] = []
        self.counts: dict[str, int] = {}

    def add(
        self,
        kind: str,
        method: str,
        path: str,
        headers: dict[str, str] | None = None,
        body: str | bytes | None = None,
        *,
        chunked: bool = False,
        expect: int | None = None,
        location: str | None = None,
    ) -> None:
        self.counts[kind] = self.counts.get(kind, 0) + 1
        entry: dict[str, Any] = {
            "id": f"{kind}-{self.counts[kind]:04d}",
            "kind": kind,
            "method": method,
            "path": path,
            "headers": dict(headers or {}),
        }
        if isinstance(body, str):
            try:
                body.encode("utf-8")
                entry["body"] = body
            except UnicodeEncodeError:  # lone surrogates: the bytes a client would send
                body = body.encode("utf-8", "surrogatepass")
        if isinstance(body, bytes):
            entry["body_b64"] = base64.b64encode(body).decode("ascii")
        if chunked:
            entry["chunked"] = True
        if expect is not None:
            entry["expect"] = expect
        if location is not None:
            entry["location"] = location
        self.entries.append(entry)


def form(fields: dict[str, str]) -> str:
    """A form body; placeholders and repeat markers are kept as they are."""
    return urlencode(fields, safe="{}<>|")


def dumps(data: Any) -> str:
    """JSON as a client writes it (lone surrogates escaped, as ``json`` does)."""
    return json.dumps(data)


def schema_fields() -> list[tuple[str, Any]]:
    """Every leaf field of the ruleset schema: (dotted path, its schema)."""
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    found: list[tuple[str, Any]] = []

    def walk(node: dict[str, Any], path: list[str]) -> None:
        if node.get("type") == "object" and "properties" in node:
            for name, child in node["properties"].items():
                walk(child, [*path, name])
        else:
            found.append((".".join(path), node))

    walk(schema, [])
    return found


def nested(path: str, value: Any) -> dict[str, Any]:
    """``{"a": {"b": value}}`` for ``"a.b"``."""
    head, _, rest = path.partition(".")
    return {head: nested(rest, value) if rest else value}


def yaml_scalar(value: Any) -> str:
    return json.dumps(value)


def yaml_at(path: str, text: str) -> str:
    """A YAML ruleset (with its name, author and description) with ``text`` at ``path``."""
    parts = path.split(".")
    lines = ["name: Typed", "author: Tester", "description: Wrong types.", "extends: classic"]
    if parts[0] in ("name", "author", "description", "extends"):
        lines = [line for line in lines if not line.startswith(parts[0] + ":")]
    for depth, part in enumerate(parts[:-1]):
        lines.append("  " * depth + part + ":")
    lines.append("  " * (len(parts) - 1) + parts[-1] + ": " + text)
    return "\n".join(lines) + "\n"


# -- the API's house rules ---------------------------------------------------------------


def api_field_types(corpus: Corpus, rng: random.Random) -> None:
    """Every field of the API's body, and every field of a ruleset, of a wrong type."""
    for field in ("yaml", "ruleset", "forked_from", "visibility"):
        for value in WRONG_VALUES:
            if field == "yaml" and isinstance(value, str) and len(value) < 10:
                continue  # a short string is YAML text: covered below
            corpus.add("api-top-types", "POST", "/api/houserules", JSON, dumps({field: value}))
    for path, node in schema_fields():
        for value in rng.sample(WRONG_VALUES, 4):
            ruleset = {"name": "Typed", "author": "T", "description": "D", "extends": "classic"}
            ruleset.update(nested(path, value))
            corpus.add(
                "api-ruleset-types", "POST", "/api/houserules", JSON, dumps({"ruleset": ruleset})
            )
        for value in rng.sample(WRONG_VALUES[:15], 2):
            text = yaml_at(path, yaml_scalar(value))
            corpus.add("yaml-types", "POST", "/api/houserules", YAML, text)
        if "enum" in node:
            text = yaml_at(path, rng.choice(["Loser", "LOSER ", "loser\u200b", "~", "!!str 1"]))
            corpus.add("yaml-enums", "POST", "/api/houserules", YAML, text)


def api_text_problems(corpus: Corpus) -> None:
    """NUL, lone surrogates, direction overrides and zero widths in every text field."""
    for field in ("name", "author", "description"):
        for text in STRANGE_TEXT:
            body = {"name": "N", "author": "A", "description": "D", "extends": "classic"}
            body[field] = text
            corpus.add("api-names", "POST", "/api/houserules", JSON, dumps({"ruleset": body}))
        for escape in ("\\ud800", "\\udc80", "\\udfff\\ud800", "\\x00", "\\u0000", "\\u202e"):
            text = yaml_at(field, f'"{escape}x"')
            corpus.add("yaml-escapes", "POST", "/api/houserules", YAML, text)
    for escape in ("\\ud800", "\\udc80", "\\u0000", "\\u202e", "\\ud83c"):
        notes = (
            f'name: Notes\nauthor: A\ndescription: D\nextends: classic\nnotes:\n  - "{escape}"\n'
        )
        corpus.add("yaml-escapes", "POST", "/api/houserules", YAML, notes)
        corpus.add("yaml-escapes", "POST", "/api/houserules", JSON, dumps({"yaml": notes}))
        corpus.add("yaml-escapes", "POST", "/build/yaml/check", JSON, dumps({"yaml": notes}))
    # JSON's own escapes: a lone surrogate in the JSON text (valid JSON, invalid text).
    for field in ("name", "author", "description", "notes"):
        value = '["\\udc80"]' if field == "notes" else '"\\udc80 x"'
        raw = (
            '{"ruleset": {"name": "N", "author": "A", "description": "D", "extends": "classic", '
            f'"{field}": {value}}}}}'
        )
        corpus.add("json-surrogates", "POST", "/api/houserules", JSON, raw)
        corpus.add(
            "json-surrogates", "POST", "/api/houserules", JSON, raw.replace("udc80", "ud800")
        )
    corpus.add(
        "json-surrogates",
        "POST",
        "/api/houserules",
        JSON,
        '{"yaml": "name: \\ud800\\nauthor: A\\n"}',
    )


def api_missing_words(corpus: Corpus) -> None:
    """A save without its name, author or description (it would look official)."""
    full = {"name": "Ours", "author": "Ana", "description": "Ours.", "extends": "classic"}
    for missing in ("name", "author", "description"):
        body = {k: v for k, v in full.items() if k != missing}
        corpus.add("api-missing", "POST", "/api/houserules", JSON, dumps({"ruleset": body}))
        text = "".join(f"{k}: {v}\n" for k, v in body.items())
        corpus.add("api-missing", "POST", "/api/houserules", YAML, text)
        corpus.add(
            "api-missing",
            "PUT",
            "/api/houserules/{slug}",
            {**YAML, "X-Edit-Secret": "{secret}"},
            text,
        )
    for text in (
        "extends: classic\n",
        "extends: hollywood\nhand_scoring:\n  gin_bonus: 30\n",
        "{}\n",
        "",
    ):
        corpus.add("api-missing", "POST", "/api/houserules", YAML, text)
    corpus.add("api-missing", "POST", "/api/houserules", JSON, dumps({}))
    corpus.add("api-missing", "POST", "/api/houserules", JSON, dumps({"ruleset": {}}))


def api_duplicates(corpus: Corpus) -> None:
    """Duplicate keys in JSON (last would win) and in YAML."""
    yaml_text = dumps(GOOD_YAML)
    for raw in (
        f'{{"yaml": {yaml_text}, "yaml": "name: Second\\n"}}',
        f'{{"yaml": {yaml_text}, "visibility": "listed", "visibility": "unlisted"}}',
        '{"ruleset": {"name": "A", "name": "B", "author": "T", "description": "D"}}',
        '{"ruleset": {"name": "A", "author": "T", "description": "D", '
        '"hand_scoring": {"gin_bonus": 20, "gin_bonus": 40}}}',
        '{"ruleset": {"name": "A", "author": "T", "description": "D", '
        '"hand_scoring": {"gin_bonus": 20}, "hand_scoring": {"gin_bonus": 40}}}',
    ):
        corpus.add("json-duplicates", "POST", "/api/houserules", JSON, raw)
        corpus.add("json-duplicates", "PUT", "/api/houserules/{slug}", EDITOR, raw)
    corpus.add(
        "json-duplicates",
        "POST",
        "/api/tables",
        JSON,
        '{"rules": "classic", "players": ["A", "B"], "players": ["C", "D"], "first_dealers": [0]}',
    )
    corpus.add(
        "json-duplicates", "POST", "/api/bots", JSON, '{"rules": "classic", "rules": "hollywood"}'
    )
    corpus.add(
        "json-duplicates", "POST", "/build/yaml/check", JSON, '{"yaml": "a: 1", "yaml": "b: 2"}'
    )
    for text in (
        "name: A\nname: B\nauthor: T\ndescription: D\n",
        "name: A\nauthor: T\ndescription: D\nhand_scoring:\n  gin_bonus: 1\n  gin_bonus: 2\n",
    ):
        corpus.add("yaml-duplicates", "POST", "/api/houserules", YAML, text)


def api_bodies(corpus: Corpus) -> None:
    """Bad bytes, deep nesting, oversized and chunked bodies, strange numbers."""
    for raw in (
        b"\xff\xfe\x00",
        b'{"yaml": "\xc3\x28"}',
        b"name: \xed\xa0\x80\n",
        b"\xc0\xafname: x\n",
        b'{"yaml": "name: ok"}\xff',
        b"\x00" * 64,
        "name: é\n".encode("latin-1"),
    ):
        for headers in (JSON, YAML):
            corpus.add("bad-utf8", "POST", "/api/houserules", headers, raw)
        corpus.add("bad-utf8", "POST", "/api/tables", JSON, raw)
        corpus.add("bad-utf8", "POST", "/build/yaml/check", JSON, raw)
    for depth in (100, 1000, 20000):
        corpus.add("deep", "POST", "/api/houserules", JSON, rep("[", depth) + rep("]", depth))
        corpus.add(
            "deep",
            "POST",
            "/api/houserules",
            JSON,
            '{"yaml": ' + rep('{"a":', depth) + "1" + rep("}", depth + 1),
        )
        corpus.add(
            "deep",
            "POST",
            "/api/houserules",
            YAML,
            "a: " + rep("[", depth) + rep("]", depth) + "\n",
        )
        corpus.add(
            "deep",
            "POST",
            "/api/tables",
            JSON,
            '{"players": ' + rep("[", depth) + rep("]", depth) + "}",
        )
        corpus.add(
            "deep", "POST", "/api/bots", JSON, '{"seed": ' + rep("[", depth) + rep("]", depth) + "}"
        )
    nested_yaml = "".join("  " * i + f"k{i}:\n" for i in range(200)) + "  " * 200 + "v: 1\n"
    corpus.add("deep", "POST", "/api/houserules", YAML, nested_yaml)
    head = "name: Big\nauthor: A\ndescription: D\nnotes:\n  - "
    for size, chunked in (
        (64 * 1024 + 1, False),
        (128 * 1024 + 1, False),
        (200_000, False),
        (131_073, True),
        (300_000, True),
        (70_000, True),
    ):
        body = head + rep("x", size - len(head))
        corpus.add("oversized", "POST", "/api/houserules", YAML, body, chunked=chunked)
        fields = "csrf_token={csrf}&form_token={form_token}&visibility=unlisted&yaml="
        corpus.add(
            "oversized",
            "POST",
            "/build/yaml",
            FORM,
            fields + quote(head) + rep("x", size - len(fields) - 3 * len(head)),
            chunked=chunked,
        )
    corpus.add("oversized", "POST", "/api/houserules", JSON, dumps({"yaml": rep("#", 65_600)}))
    corpus.add(
        "oversized",
        "POST",
        "/api/tables",
        JSON,
        dumps({"rules": "classic", "players": [rep("A", 60_000), "B"], "first_dealers": [0]}),
    )
    corpus.add(
        "oversized",
        "POST",
        "/api/tables",
        JSON,
        '{"rules": "classic", "first_dealers": [0], "players": [' + rep('"P",', 9_999) + '"P"]}',
    )
    for number in (
        "1e400",
        "-1e400",
        "NaN",
        "Infinity",
        "-0",
        rep("1", 5000),
        "0x10",
        "1_000",
        "+5",
        ".5",
        "00012",
    ):
        corpus.add(
            "numbers",
            "POST",
            "/api/houserules",
            JSON,
            '{"ruleset": {"name": "N", "author": "A", "description": "D", '
            f'"hand_scoring": {{"gin_bonus": {number}}}}}}}',
        )
        corpus.add(
            "numbers", "POST", "/api/houserules", YAML, yaml_at("hand_scoring.gin_bonus", number)
        )
        corpus.add(
            "numbers",
            "POST",
            "/api/tables",
            JSON,
            f'{{"rules": "classic", "players": ["A", "B"], "first_dealers": [{number}]}}',
        )
        corpus.add(
            "numbers", "POST", "/api/bots", JSON, f'{{"rules": "classic", "seed": {number}}}'
        )
        corpus.add(
            "numbers",
            "POST",
            "/api/tables/{table}/events",
            SCORER,
            f'{{"seen": {number}, "event": {{"kind": "undo"}}}}',
        )


def yaml_attacks(corpus: Corpus) -> None:
    """Billion laughs, tags that build Python objects, merge keys, odd documents."""
    laughs = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for level in range(1, 10):
        prev = chr(ord("a") + level - 1)
        name = chr(ord("a") + level)
        laughs.append(f"{name}: &{name} [{', '.join(['*' + prev] * 9)}]")
    bomb = "\n".join(laughs) + "\n"
    documents = [
        bomb,
        "name: &n Laugh\nauthor: *n\ndescription: *n\nnotes: &x [*n, *n]\nextra: [*x, *x, *x]\n",
        "name: !!python/object/apply:os.system ['echo pwned']\nauthor: A\ndescription: D\n",
        "!!python/object:ginrules.web.storage.Store {url: 'sqlite://'}\n",
        "name: !!python/name:os.system\nauthor: A\ndescription: D\n",
        "name: !!binary aGVsbG8=\nauthor: A\ndescription: D\n",
        "name: !!set {a, b}\nauthor: A\ndescription: D\n",
        "name: !!timestamp 2001-12-14\nauthor: A\ndescription: D\n",
        "name: !custom thing\nauthor: A\ndescription: D\n",
        "name: !!float 1e400\nauthor: A\ndescription: D\n",
        "base: &b {gin_bonus: 20}\nname: M\nauthor: A\ndescription: D\nhand_scoring:\n  <<: *b\n",
        "hand_scoring: &h\n  self: *h\n",
        "name: A\n---\nname: B\n",
        "%YAML 1.1\n%TAG ! tag:evil.example,2000:\n---\nname: !x A\n",
        "? [complex, key]\n: value\n",
        "name: [unclosed\n",
        "name: 'unterminated\n",
        "\t\tname: tabs\n",
        "name: A\nauthor: B\ndescription: C\nextends: ../../etc/passwd\n",
        "name: A\nauthor: B\ndescription: C\nextends: h/zzzzzzzz/v1\n",
        "name: A\nauthor: B\ndescription: C\nextends: classic\nextends: hollywood\n",
        "- just\n- a\n- list\n",
        "just a string\n",
        "42\n",
        "null\n",
        "~\n",
        "name: A\nauthor: B\ndescription: C\nnotes: " + "[" * 500 + "]" * 500 + "\n",
        "name: A\nauthor: B\ndescription: C\nhand_scoring: {gin_bonus: 0x7fffffffffffffffffff}\n",
        "name: A\nauthor: B\ndescription: C\nhand_scoring: {gin_bonus: 0o777777777777777777}\n",
        "name: A\nauthor: B\ndescription: C\ngame_scoring: {stake_per_point: .nan}\n",
        "name: A\nauthor: B\ndescription: C\ngame_scoring: {stake_per_point: -.inf}\n",
        "name: A\nauthor: B\ndescription: C\n"
        "format: {type: partnership, players: 4, team_target: 1e10}\n",
    ]
    for text in documents:
        corpus.add("yaml-attacks", "POST", "/api/houserules", YAML, text)
        corpus.add("yaml-attacks", "POST", "/api/houserules", JSON, dumps({"yaml": text}))
        corpus.add(
            "yaml-attacks",
            "PUT",
            "/api/houserules/{slug}",
            {**YAML, "X-Edit-Secret": "{secret}"},
            text,
        )
        corpus.add("yaml-attacks", "POST", "/build/yaml/check", JSON, dumps({"yaml": text}))
        corpus.add(
            "yaml-attacks",
            "POST",
            "/build/yaml",
            FORM,
            "csrf_token={csrf}&form_token={form_token}&visibility=unlisted&" + form({"yaml": text}),
        )


def content_types(corpus: Corpus) -> None:
    """Bodies under every type but the two the API takes (415), and broken types."""
    for kind in (
        "text/plain",
        "text/plain; charset=utf-8",
        "text/html",
        "application/xml",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "multipart/form-data",
        "application/octet-stream",
        "image/png",
        "",
        "application/json; charset=latin-1",
        "application/json, text/plain",
        "application/jsonp",
        "APPLICATION/JSON",
        "application/x-yaml",
        "text/yaml",
        "application/yaml; charset=utf-16",
        ";;;",
        'application/json; boundary="',
        "text/x-yaml",
    ):
        headers = {"Content-Type": kind} if kind else {}
        corpus.add("content-types", "POST", "/api/houserules", headers, GOOD_YAML)
        corpus.add("content-types", "POST", "/api/houserules", headers, dumps({"yaml": GOOD_YAML}))
        corpus.add(
            "content-types",
            "POST",
            "/api/tables",
            headers,
            dumps({"rules": "classic", "players": ["A", "B"], "first_dealers": [0]}),
        )
    corpus.add(
        "content-types",
        "POST",
        "/api/houserules",
        {**JSON, "Content-Encoding": "gzip"},
        b"\x1f\x8b\x08\x00garbage",
    )
    corpus.add(
        "content-types",
        "POST",
        "/api/houserules",
        {**JSON, "Content-Encoding": "br"},
        dumps({"yaml": GOOD_YAML}),
    )


def api_update_and_reads(corpus: Corpus, rng: random.Random) -> None:
    """Updates without, with wrong and with strange secrets; reads of bad slugs,
    versions and pages."""
    body = dumps({"yaml": GOOD_YAML})
    for secret in (
        "",
        "wrong",
        "{secret}x",
        rep("x", 10_000),
        " {secret}",
        "{secret}\t",
        "%00",
        "\u00e9",
    ):
        headers = {**JSON, "X-Edit-Secret": secret} if secret else dict(JSON)
        corpus.add("api-update", "PUT", "/api/houserules/{slug}", headers, body)
    for slug in (
        "zzzzzzzz",
        "{slug}x",
        "..",
        "%2e%2e",
        "AAAA",
        "a" * 500,
        "%00",
        "%ff",
        "h%2f{slug}",
        "{slug}%0a",
        "-1",
        "{slug};drop table versions",
        "\u00e9t\u00e9",
    ):
        corpus.add("bad-slugs", "GET", f"/api/houserules/{slug}")
        corpus.add("bad-slugs", "GET", f"/h/{slug}")
        corpus.add("bad-slugs", "PUT", f"/api/houserules/{slug}", EDITOR, body)
        corpus.add("bad-slugs", "GET", f"/t/{slug}")
        corpus.add("bad-slugs", "GET", f"/api/bots/{slug}")
    numbers = (
        "0",
        "-1",
        "1.5",
        "abc",
        "99999999999999999999",
        "2147483648",
        "9223372036854775808",
        "1e3",
        "%20",
        "0x1",
        "00001",
        "1" * 400,
    )
    for number in numbers:
        corpus.add("bad-versions", "GET", f"/h/{{slug}}/v{number}")
        corpus.add("bad-versions", "GET", f"/h/{{slug}}/v{number}/sheet")
        corpus.add("bad-versions", "GET", f"/h/{{slug}}/v{number}.yaml")
        corpus.add("bad-versions", "GET", f"/h/{{slug}}/v{number}/share")
        corpus.add("bad-versions", "GET", f"/api/houserules/{{slug}}/versions/{number}")
        corpus.add("bad-versions", "GET", f"/api/houserules/{{slug}}/versions/{number}/config")
        corpus.add("bad-versions", "GET", f"/build?from=h/{{slug}}/v{number}")
        for name in ("page", "per_page", "limit", "before", "after"):
            corpus.add("bad-pages", "GET", f"/h/{{slug}}/versions?{name}={number}")
            corpus.add("bad-pages", "GET", f"/api/houserules/{{slug}}/versions?{name}={number}")
    for query in (
        "a=classic&b=hollywood",
        "a=classic",
        "",
        "a=h/zzzz/v1&b=classic",
        "a=../x&b=classic",
        "a=" + rep("x", 5000) + "&b=classic",
        "a=classic&a=hollywood&b=classic",
        "a=%00&b=%ff",
    ):
        corpus.add("api-reads", "GET", f"/api/diff?{query}")
    for query in (
        "page=-1",
        "page=abc",
        "limit=100000",
        "listed=maybe",
        "offset=1e9",
        "page=" + "9" * 50,
    ):
        corpus.add("api-reads", "GET", f"/api/houserules?{query}")
    for reference in (
        "h/{slug}/v1",
        "h/{slug}",
        "classic",
        "h/{slug}/v0",
        "h/zzzzzzzz/v1",
        "../etc",
        "%00",
        "h/{slug}/v" + "9" * 40,
        "rules/classic",
        "x" * 3000,
    ):
        corpus.add("api-reads", "GET", f"/api/rulesets/{reference}")
        corpus.add("api-reads", "GET", f"/build?from={reference}")
        corpus.add("api-reads", "GET", f"/build/yaml?from={reference}")
        corpus.add("api-reads", "GET", f"/bot/{reference}")
        corpus.add(
            "api-reads",
            "POST",
            "/api/houserules",
            JSON,
            dumps({"yaml": GOOD_YAML, "forked_from": reference}),
        )
    corpus.add(
        "api-reads",
        "GET",
        "/api/houserules/{slug}/versions?" + "&".join(f"p{i}=1" for i in range(3000)),
    )
    corpus.add("api-reads", "GET", "/?q=" + rep("x", 100_000))


# -- the table and bot APIs ----------------------------------------------------------------


def table_api(corpus: Corpus, rng: random.Random) -> None:
    """Starts, events, next games and imports with garbage in every field."""
    start = {"rules": "classic", "players": ["Ana", "Ben"], "first_dealers": [0]}
    for field in ("rules", "players", "first_dealers"):
        for value in WRONG_VALUES:
            corpus.add("table-start", "POST", "/api/tables", JSON, dumps({**start, field: value}))
    for players in (
        ["Ana"],
        ["Ana"] * 5,
        ["", ""],
        ["\x00", "B"],
        ["\u202eA", "B"],
        [None, "B"],
        ["A", 7],
    ):
        corpus.add("table-start", "POST", "/api/tables", JSON, dumps({**start, "players": players}))
    corpus.add("table-start", "POST", "/api/tables", JSON, dumps({**start, "extra": 1}))
    corpus.add("table-start", "POST", "/api/tables", JSON, dumps({**start, "rules": "h/{slug}/v2"}))
    hand = {
        "kind": "hand",
        "entries": [
            {"end": "knock", "ended_by": 0, "knocker_deadwood": 5, "defender_deadwood": 20}
        ],
    }
    events: list[Any] = [
        None,
        [],
        "undo",
        {"kind": "nope"},
        {"kind": "hand"},
        {"kind": "hand", "entries": None},
        {"kind": "hand", "entries": [{}]},
        {"kind": "hand", "entries": [None]},
        {"kind": "hand", "entries": "x"},
        {"kind": "correct", "entries": []},
        {"kind": "correct", "number": -1, "entries": hand["entries"]},
        {"kind": "correct", "number": 10**30, "entries": hand["entries"]},
        {"kind": "next", "slug": "x", "rules": "y", "fingerprint": "z"},
        {"kind": "hand", "entries": [{"end": "knock", "ended_by": 5, "knocker_deadwood": 5}]},
        {"kind": "hand", "entries": [{"end": "gin", "ended_by": 0, "knocker_deadwood": 10**40}]},
        {"kind": "hand", "entries": [{"end": "knock", "ended_by": 0, "knocker_deadwood": -5}]},
        {"kind": "hand", "entries": [{"end": "knock", "ended_by": 0, "knocker_deadwood": 1.5}]},
        {"kind": "hand", "entries": [{"end": "knock", "ended_by": True}]},
        {"kind": "hand", "entries": [{"knocker": ["ZZ"], "defender": [], "ended_by": 0}]},
        {"kind": "hand", "entries": [{"knocker": "AS 2S 3S", "defender": None, "ended_by": 0}]},
        {
            "kind": "hand",
            "entries": [{"knocker": ["AS"] * 11, "defender": ["AS"] * 10, "ended_by": 0}],
        },
        {
            "kind": "hand",
            "entries": [{"knocker": [], "defender": [], "ended_by": 0, "knocker_melds": [[None]]}],
        },
        {"kind": "hand", "entries": [{"end": "knock", "ended_by": 0, "upcard": "\udc80"}]},
        {"kind": "hand", "entries": [{"end": "knock", "ended_by": 0, "upcard": 12}]},
        {"kind": "hand", "entries": [hand["entries"][0]] * 500},
    ]
    for event in events:
        corpus.add(
            "table-events",
            "POST",
            "/api/tables/{table}/events",
            SCORER,
            dumps({"seen": 0, "event": event}),
        )
    for seen in WRONG_VALUES:
        corpus.add(
            "table-events",
            "POST",
            "/api/tables/{table}/events",
            SCORER,
            dumps({"seen": seen, "event": hand}),
        )
    for request_key in (7, "", rep("k", 10_000), None, ["k"], "\x00"):
        corpus.add(
            "table-events",
            "POST",
            "/api/tables/{table}/events",
            SCORER,
            dumps({"seen": 0, "event": {"kind": "undo"}, "request_key": request_key}),
        )
    for key in ("", "wrong", rep("x", 5000), "{scorer_key} "):
        corpus.add(
            "table-events",
            "POST",
            "/api/tables/{table}/events",
            {**JSON, "X-Scorer-Key": key},
            dumps({"seen": 0, "event": hand}),
        )
        corpus.add("table-events", "GET", "/api/tables/{table}/scorer-link", {"X-Scorer-Key": key})
    corpus.add(
        "table-events",
        "POST",
        "/api/tables/{table}/events",
        {**SCORER, "X-Player": "\u202e" + rep("x", 5000)},
        dumps({"seen": 0, "event": {"kind": "undo"}}),
    )
    for rules in [*WRONG_VALUES[:12], "newer", "same", "other"]:
        corpus.add(
            "table-next",
            "POST",
            "/api/tables/{table}/next",
            SCORER,
            dumps({"seen": 0, "rules": rules}),
        )
    base_import: dict[str, Any] = {
        "ginrules_table": 1,
        "players": ["A", "B"],
        "first_dealers": [0],
        "rules": {"ref": "classic", "name": "classic", "fingerprint": "x", "yaml": ""},
        "events": [],
    }
    for field in sorted(base_import):
        for value in rng.sample(WRONG_VALUES, 6):
            corpus.add(
                "table-import",
                "POST",
                "/api/tables/import",
                JSON,
                dumps({**base_import, field: value}),
            )
    for events in (
        [{"number": 1, "event": hand, "actor": "x", "at": "not a time"}],
        [{"number": 10**20, "event": hand, "actor": "x", "at": "2024-01-01T00:00:00Z"}],
        [{"number": 1, "event": None}] * 3,
        [{"number": 1, "event": hand, "actor": "\udc80", "at": "2024-01-01T00:00:00Z"}],
    ):
        corpus.add(
            "table-import",
            "POST",
            "/api/tables/import",
            JSON,
            dumps({**base_import, "events": events}),
        )
    corpus.add(
        "table-import",
        "POST",
        "/api/tables/import",
        JSON,
        dumps(
            {
                **base_import,
                "rules": {
                    "ref": "x",
                    "name": "x",
                    "fingerprint": "x",
                    "yaml": "!!python/object/apply:os.system ['id']",
                },
            }
        ),
    )
    for query in ("after=-1", "after=abc", "after=" + "9" * 40, "last-event-id=x"):
        corpus.add("table-reads", "GET", f"/t/{{table}}/now?{query}")
        corpus.add("table-reads", "GET", f"/t/{{table}}/pad?{query}")
    corpus.add("table-reads", "GET", "/t/{table}/now", {"Last-Event-ID": "x" * 1000})
    corpus.add("table-reads", "GET", "/t/new?rules=../../etc/passwd")
    corpus.add("table-reads", "GET", "/t/new?rules=h/zzzzzzzz/v1")
    corpus.add("table-reads", "GET", "/t/new")


def bot_api(corpus: Corpus) -> None:
    """Bot games started and played with garbage."""
    for field in ("rules", "bot", "seed"):
        for value in WRONG_VALUES:
            corpus.add(
                "bot-start", "POST", "/api/bots", JSON, dumps({"rules": "classic", field: value})
            )
    for action in (
        None,
        [],
        "draw",
        {"action": None},
        {"action": "nope"},
        {"action": "discard"},
        {"action": "discard", "card": "ZZ"},
        {"action": "discard", "card": 12},
        {"action": "knock", "card": "AS", "melds": [["AS", "XX"]]},
        {"action": "knock", "card": "AS", "melds": "AS"},
        {"action": "defend", "layoffs": [{"card": "AS", "meld": 10**400}]},
        {"action": "defend", "layoffs": [{"card": "AS", "meld": "1e999"}]},
        {"action": "defend", "layoffs": [{"card": "AS"}]},
        {"action": "defend", "layoffs": [None]},
        {"action": "draw", "card": "\udc80"},
        {"action": "draw", "extra": [[[[]]]]},
    ):
        corpus.add(
            "bot-actions",
            "POST",
            "/api/bots/{bot}/actions",
            PLAYER,
            dumps({"seen": 0, "action": action}),
        )
    for seen in (-1, 10**30, "0", None, 1.5):
        corpus.add(
            "bot-actions",
            "POST",
            "/api/bots/{bot}/actions",
            PLAYER,
            dumps({"seen": seen, "action": {"action": "draw"}}),
        )
    for key in ("", "wrong", rep("x", 5000)):
        corpus.add(
            "bot-actions",
            "POST",
            "/api/bots/{bot}/actions",
            {**JSON, "X-Player-Key": key},
            dumps({"seen": 0, "action": {"action": "draw"}}),
        )
    for seed in ("", "-1", "1e9", "9" * 40, "abc", "\x00", " 7 "):
        corpus.add(
            "bot-form",
            "POST",
            "/bot/classic",
            FORM,
            "csrf_token={csrf}&bot=random&" + form({"seed": seed}),
        )
    for bot in ("", "nope", "../x", "\x00", "b" * 500):
        corpus.add(
            "bot-form",
            "POST",
            "/bot/classic",
            FORM,
            "csrf_token={csrf}&seed=1&" + form({"bot": bot}),
        )


# -- the site's forms ------------------------------------------------------------------


def builder_forms(corpus: Corpus, rng: random.Random) -> None:
    """The builder with garbage in every field (with a valid CSRF token), the YAML
    editor, the live differences, the edit form and a new table."""
    base = {
        "name": "Form",
        "author": "Ana",
        "description": "",
        "notes": "",
        "base": "classic",
        "visibility": "unlisted",
    }
    garbage = [
        "",
        "-1",
        "9" * 400,
        "nul\x00",
        "1e309",
        "<b>x</b>",
        "\u202eevil",
        "true",
        "none",
        rep("x", 70_000),
    ]
    fields = [path for path, _ in schema_fields() if path not in ("extends",)] + [
        "base",
        "visibility",
        "forked_from",
    ]
    for field in fields:
        for value in rng.sample(garbage, 2):
            body = {**base, field: value}
            encoded = "csrf_token={csrf}&form_token={form_token}&" + form(body)
            corpus.add("builder", "POST", "/build", FORM, encoded)
    for value in garbage:
        corpus.add(
            "builder",
            "POST",
            "/build/preview",
            FORM,
            "csrf_token={csrf}&" + form({**base, "name": value}),
        )
        corpus.add(
            "builder",
            "POST",
            "/h/{slug}/edit",
            FORM,
            "csrf_token={csrf}&form_token={form_token}&key={secret}&"
            + form({**base, "name": value}),
        )
    for form_token in ("", "short", "x" * 100, "../..", "\x00" * 20):
        corpus.add(
            "builder",
            "POST",
            "/build",
            FORM,
            "csrf_token={csrf}&" + form({**base, "form_token": form_token}),
        )
    corpus.add("builder", "POST", "/build", FORM, form(base))  # no CSRF token
    corpus.add("builder", "POST", "/build", FORM, "csrf_token=forged&" + form(base))
    corpus.add(
        "builder",
        "POST",
        "/build",
        FORM,
        "csrf_token={csrf}&" + "&".join(f"f{i}=1" for i in range(5000)),
    )
    corpus.add("builder", "POST", "/build", FORM, "csrf_token={csrf}&name=%ff%fe&author=%ed%a0%80")
    corpus.add(
        "builder",
        "POST",
        "/build",
        {"Content-Type": "multipart/form-data; boundary=zz"},
        '--zz\r\nContent-Disposition: form-data; name="name"\r\n\r\nx\r\n--zz',
    )
    for key in ("", "wrong", "{secret}x", "x" * 3000):
        corpus.add(
            "builder",
            "POST",
            "/h/{slug}/edit",
            FORM,
            "csrf_token={csrf}&" + form({**base, "key": key}),
        )
        corpus.add("builder", "GET", f"/h/{{slug}}/edit?key={quote(key)}")
        corpus.add("builder", "GET", f"/h/{{slug}}/edit?mode=yaml&key={quote(key)}")
    corpus.add("builder", "GET", "/h/{slug}/edit?key={secret}&mode=" + rep("y", 5000))
    corpus.add("builder", "GET", "/h/{slug}/edit?key={secret}&key=wrong")
    for yaml_text in ("", "name: \x00", "name: [", "\ufeffname: A\nauthor: B\ndescription: C\n"):
        corpus.add(
            "builder",
            "POST",
            "/h/{slug}/edit",
            FORM,
            "csrf_token={csrf}&form_token={form_token}&key={secret}&visibility=unlisted&"
            + form({"yaml": yaml_text}),
        )
    table_form = {"rules": "classic", "player-0": "Ana", "player-1": "Ben", "dealer-0": "cut"}
    for field, values in (
        ("rules", ["", "zz", "../x", "h/zzzzzzzz/v1"]),
        ("player-0", ["", "\x00", "\u202eA", rep("x", 5000)]),
        ("dealer-0", ["-1", "99", "abc", "", "5"]),
    ):
        for value in values:
            corpus.add(
                "table-form",
                "POST",
                "/t/new",
                FORM,
                "csrf_token={csrf}&" + form({**table_form, field: value}),
            )


# -- headers, paths, methods, other sites ------------------------------------------------


def routes() -> list[str]:
    """Every route of the site, its placeholders filled (each ``any()`` choice once)."""
    import re
    import sys
    import tempfile

    sys.path.insert(0, str(ROOT))
    from ginrules.web import create_app

    with tempfile.TemporaryDirectory() as folder:
        config = {"INSTANCE_PATH": Path(folder), "DATABASE_URL": f"sqlite:///{folder}/r.db"}
        app = create_app({**config, "SECRET_KEY": "corpus"})
        rules = sorted(rule.rule for rule in app.url_map.iter_rules())
        app.extensions["ginrules.store"].close()
    found: set[str] = set()
    for rule in rules:
        owner = "{bot}" if rule.startswith(("/b/", "/api/bots")) else "{slug}"
        if rule.startswith(("/t/", "/api/tables")):
            owner = "{table}"
        for name, value in (
            ("<slug>", owner),
            ("<name>", "classic"),
            ("<int:number>", "1"),
            ("<path:ref>", "classic"),
            ("<path:filename>", "site.css"),
        ):
            rule = rule.replace(name, value)
        paths = [rule]
        while any("<any(" in path for path in paths):
            expanded = []
            for path in paths:
                found_any = re.search(r"<any\(([^)]*)\):\w+>", path)
                if found_any is None:
                    expanded.append(path)
                    continue
                for choice in found_any[1].split(","):
                    expanded.append(path.replace(found_any[0], choice.strip(" '\""), 1))
            paths = expanded
        found.update(paths)
    return sorted(found)


def every_method(corpus: Corpus) -> None:
    """Every method, known or not, on every route, with a small JSON body."""
    for path in routes():
        for method in (
            "GET",
            "HEAD",
            "POST",
            "PUT",
            "PATCH",
            "DELETE",
            "OPTIONS",
            "TRACE",
            "PROPFIND",
        ):
            corpus.add("methods", method, path, JSON, "{}")


def host_tricks(corpus: Corpus) -> None:
    """Forged hosts and slash-fixing redirects: no answer names the Host."""
    tricks = [
        {"Host": EVIL},
        {"Host": f"{EVIL}:8080"},
        {"Host": f"gin.example.org@{EVIL}"},
        {"X-Forwarded-Host": EVIL},
        {"Forwarded": f"host={EVIL};proto=http"},
        {"X-Forwarded-Host": EVIL, "X-Forwarded-Proto": "http", "X-Forwarded-For": "1.2.3.4"},
        {"X-Original-URL": f"//{EVIL}/", "X-Rewrite-URL": f"//{EVIL}/"},
        {"Host": f"{EVIL}:99999"},
    ]
    pages = [
        "/",
        "/rules/classic",
        "/h/{slug}",
        "/h/{slug}/v1/share",
        "/h/{slug}/qr.svg",
        "/api/houserules/{slug}",
        "/t/{table}",
        "/api/tables/{table}",
        "/bot/classic",
        "/no/such/page",
        "/build",
    ]
    for headers in tricks:
        for page in pages:
            corpus.add("host", "GET", page, headers)
    for path, location in (
        ("/h//{slug}", "/h/{slug}"),
        ("/rules//classic", "/rules/classic"),
        ("/h/{slug}//v1//sheet", "/h/{slug}/v1/sheet"),
        ("/api//rulesets", "/api/rulesets"),
        ("/rules//classic?x=1", "/rules/classic?x=1"),
        ("/bot//classic", "/bot/classic"),
    ):
        corpus.add("host", "GET", path, {"Host": EVIL}, expect=308, location=location)
    corpus.add(
        "host",
        "POST",
        "/api//houserules",
        {"Host": EVIL, **JSON},
        dumps({"yaml": GOOD_YAML}),
        expect=308,
        location="/api/houserules",
    )


def paths_and_headers(corpus: Corpus) -> None:
    """Traversal, odd encodings, long paths and queries, and hostile headers."""
    for path in (
        "/static/../../etc/passwd",
        "/static/..%2f..%2fetc%2fpasswd",
        "/static/%2e%2e/%2e%2e/etc/passwd",
        "/static/....//....//etc/passwd",
        "/static/%c0%ae%c0%ae/etc/passwd",
        "/static/site.css%00.png",
        "/static/",
        "/static/.",
        "/static/..",
        "/rules/../../etc/passwd",
        "/rules/classic%00",
        "/rules/%ff%fe",
        "/rules/%zz",
        "/bot/../../etc/passwd",
        "/bot/%2e%2e/%2e%2e/etc/passwd",
        "/bot/" + rep("a/", 2000),
        "/h/%00/v1",
        "/h/{slug}/v1/%2e%2e",
        "/" + rep("x", 10_000),
        "/rules/" + rep("é", 1000),
        "/rules/classic.yaml/..",
        "/rules/classic/sheet.pdf/",
        "/rules/classic/",
        "/h/{slug}/",
        "/api/",
        "/api",
        "/h/",
        "/t/",
        "/b/",
        "/.git/config",
        "/.env",
        "/instance/secret_key",
        "/favicon.ico/..",
        "/rules/classic%2fsheet",
        "/t/sw.js?" + rep("v=1&", 2000),
    ):
        corpus.add("paths", "GET", path)
    hostile_headers = [
        {"Accept": "*/*;q=abc, text/html;q=2"},
        {"Accept": "application/json"},
        {"Accept": rep("x", 8000)},
        {"Accept-Language": "../../../etc/passwd"},
        {"Accept-Language": "zz-ZZ, *;q=0.1"},
        {"Accept-Language": rep("x", 5000)},
        {"Accept-Language": "en;q=nan, fr;q=inf"},
        {"Accept-Encoding": "gzip;q=abc"},
        {"If-None-Match": "*"},
        {"If-None-Match": '"' + rep("x", 5000)},
        {"If-Modified-Since": "not a date"},
        {"If-Modified-Since": "Mon, 01 Jan 10000 00:00:00 GMT"},
        {"Range": "bytes=-1-2"},
        {"Range": "bytes=999999999-"},
        {"Range": rep("bytes=0-0,1-1,2-2,", 200)},
        {"Cookie": "session=forged.payload.signature"},
        {"Cookie": "session=" + rep("a", 4000)},
        {"Cookie": "session=.eJzLSM3JyVcozy_KSQEAGgQEXQ.abc.def"},
        {"Cookie": rep("a=b; ", 500)},
        {"Content-Length": "-1"},
        {"Content-Length": "abc"},
        {"Content-Length": "99999999999999"},
        {"X-Forwarded-For": rep("not an address, ", 100)},
        {"X-Forwarded-Proto": "gopher"},
        {"User-Agent": rep("x", 10_000)},
        {"Referer": "javascript:alert(1)"},
    ]
    for headers in hostile_headers:
        for path in (
            "/",
            "/rules/classic/sheet.pdf",
            "/static/site.css",
            "/api/houserules/{slug}",
            "/h/{slug}/v1/share",
        ):
            corpus.add("headers", "GET", path, headers)
        corpus.add(
            "headers", "POST", "/api/houserules", {**JSON, **headers}, dumps({"yaml": GOOD_YAML})
        )


def nul_references(corpus: Corpus) -> None:
    """NUL and control characters wherever a slug or a reference is read (PostgreSQL
    refuses NUL in text: the lookup must not reach it)."""
    for reference in (
        "h/\x00",
        "h/\x00/v1",
        "h/{slug}\x00/v1",
        "\x00",
        "h/{slug}/v1\x00",
        "h/\x1b[2J",
    ):
        quoted = quote(reference, safe="/{}")
        corpus.add(
            "nul-refs",
            "POST",
            "/api/houserules",
            JSON,
            dumps({"yaml": GOOD_YAML, "forked_from": reference}),
        )
        corpus.add(
            "nul-refs",
            "POST",
            "/api/tables",
            JSON,
            dumps({"rules": reference, "players": ["A", "B"], "first_dealers": [0]}),
        )
        corpus.add("nul-refs", "POST", "/api/bots", JSON, dumps({"rules": reference}))
        corpus.add("nul-refs", "GET", f"/api/diff?a={quoted}&b=classic")
        corpus.add("nul-refs", "GET", f"/build?from={quoted}")
        corpus.add("nul-refs", "GET", f"/build/yaml?from={quoted}")
        corpus.add("nul-refs", "GET", f"/t/new?rules={quoted}")
        corpus.add("nul-refs", "GET", f"/bot/{quoted}")
        corpus.add("nul-refs", "GET", f"/api/rulesets/{quoted}")
        corpus.add(
            "nul-refs",
            "POST",
            "/build",
            FORM,
            form(
                {
                    "csrf_token": "{csrf}",
                    "form_token": "{form_token}",
                    "name": "N",
                    "author": "A",
                    "base": "classic",
                    "visibility": "unlisted",
                    "forked_from": reference,
                }
            ),
        )
        corpus.add(
            "nul-refs",
            "POST",
            "/t/new",
            FORM,
            form({"csrf_token": "{csrf}", "rules": reference, "player-0": "A", "player-1": "B"}),
        )
    for slug in ("%00", "{slug}%00", "%01", "%1b", "%7f"):
        for path in (
            "/h/{s}",
            "/h/{s}/v1",
            "/h/{s}/versions",
            "/h/{s}/v1/share",
            "/h/{s}/qr.svg",
            "/h/{s}/edit?key=x",
            "/api/houserules/{s}/versions",
            "/t/{s}",
            "/t/{s}/pad",
            "/api/tables/{s}",
            "/api/tables/{s}/live",
            "/b/{s}",
            "/api/bots/{s}",
        ):
            corpus.add("nul-refs", "GET", path.replace("{s}", slug))
        corpus.add("nul-refs", "PUT", f"/api/houserules/{slug}", EDITOR, dumps({"yaml": GOOD_YAML}))
        corpus.add(
            "nul-refs",
            "POST",
            f"/api/tables/{slug}/events",
            SCORER,
            dumps({"seen": 0, "event": {"kind": "undo"}}),
        )
        corpus.add(
            "nul-refs",
            "POST",
            f"/api/bots/{slug}/actions",
            PLAYER,
            dumps({"seen": 0, "action": {"action": "draw"}}),
        )
        corpus.add(
            "nul-refs",
            "POST",
            f"/h/{slug}/edit",
            FORM,
            form({"csrf_token": "{csrf}", "key": "{secret}", "name": "x"}),
        )
    corpus.add(
        "nul-refs",
        "POST",
        "/api/tables/{table}/events",
        {**SCORER, "X-Player": "a\x00b"},
        dumps({"seen": 0, "event": {"kind": "undo"}}),
    )
    corpus.add(
        "nul-refs",
        "POST",
        "/api/tables/{table}/events",
        SCORER,
        dumps({"seen": 0, "event": {"kind": "undo"}, "request_key": "k\x00"}),
    )
    corpus.add(
        "nul-refs",
        "PUT",
        "/api/houserules/{slug}",
        {**JSON, "X-Edit-Secret": "{secret}\x00"},
        dumps({"yaml": GOOD_YAML}),
    )


def other_sites(corpus: Corpus) -> None:
    """State changes sent from another site's page: 403, nothing stored."""
    senders = [
        {"Origin": f"https://{EVIL}"},
        {"Origin": "null"},
        {"Sec-Fetch-Site": "cross-site"},
        {"Sec-Fetch-Site": "same-site"},
        {"Origin": "https://gin.example.org.evil.example"},
        {"Origin": "http://gin.example.org"},
        {"Origin": f"https://{EVIL}", "Sec-Fetch-Site": "cross-site"},
    ]
    targets = [
        ("POST", "/api/houserules", {"Content-Type": "text/plain"}, GOOD_YAML),
        ("POST", "/api/houserules", JSON, dumps({"yaml": GOOD_YAML})),
        (
            "PUT",
            "/api/houserules/{slug}",
            {"Content-Type": "text/plain", "X-Edit-Secret": "{secret}"},
            GOOD_YAML,
        ),
        (
            "POST",
            "/api/tables",
            {"Content-Type": "text/plain"},
            dumps({"rules": "classic", "players": ["A", "B"], "first_dealers": [0]}),
        ),
        (
            "POST",
            "/api/tables/{table}/events",
            {**SCORER, "Content-Type": "text/plain"},
            dumps({"seen": 0, "event": {"kind": "undo"}}),
        ),
        ("POST", "/api/bots", {"Content-Type": "text/plain"}, dumps({"rules": "classic"})),
        ("POST", "/api/tables/import", {"Content-Type": "text/plain"}, "{}"),
        (
            "POST",
            "/build",
            FORM,
            "csrf_token={csrf}&form_token={form_token}&name=Forged&author=X&base=classic&visibility=listed",
        ),
        (
            "POST",
            "/build/yaml",
            FORM,
            "csrf_token={csrf}&form_token={form_token}&visibility=listed&"
            + form({"yaml": GOOD_YAML}),
        ),
        (
            "POST",
            "/h/{slug}/edit",
            FORM,
            "csrf_token={csrf}&form_token={form_token}&key={secret}&visibility=listed&"
            + form({"yaml": GOOD_YAML}),
        ),
        (
            "POST",
            "/t/new",
            FORM,
            "csrf_token={csrf}&rules=classic&player-0=A&player-1=B&dealer-0=cut",
        ),
        ("POST", "/bot/classic", FORM, "csrf_token={csrf}&bot=random&seed=1"),
    ]
    for sender in senders:
        for method, path, headers, body in targets:
            corpus.add("cross-site", method, path, {**headers, **sender}, body, expect=403)


def build(corpus: Corpus) -> None:
    rng = random.Random(SEED)
    api_field_types(corpus, rng)
    api_text_problems(corpus)
    api_missing_words(corpus)
    api_duplicates(corpus)
    api_bodies(corpus)
    yaml_attacks(corpus)
    content_types(corpus)
    api_update_and_reads(corpus, rng)
    table_api(corpus, rng)
    bot_api(corpus)
    builder_forms(corpus, rng)
    every_method(corpus)
    host_tricks(corpus)
    paths_and_headers(corpus)
    nul_references(corpus)
    other_sites(corpus)


def lines(corpus: Corpus) -> Iterator[str]:
    for entry in corpus.entries:
        yield json.dumps(entry, ensure_ascii=True, sort_keys=True)


def main() -> None:
    corpus = Corpus()
    build(corpus)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text("\n".join(lines(corpus)) + "\n", encoding="utf-8")
    print(f"{len(corpus.entries)} requests in {OUT.relative_to(ROOT)}")
    for kind, count in sorted(corpus.counts.items()):
        print(f"  {kind:20} {count}")


if __name__ == "__main__":
    main()
