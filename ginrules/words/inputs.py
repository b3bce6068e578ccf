"""Why the site refuses what was sent: a JSON key sent twice, a request body of the
wrong type, a house rule that does not say what it is and who wrote it."""

from __future__ import annotations

from ginrules.words.i18n import _


def missing(field: str) -> str:
    """``name``, ``author`` or ``description`` left out of a house rule."""
    if field == "name":
        return _(
            "name is missing: give your house rules a name of their own (it is not taken"
            " from the rules they extend)"
        )
    if field == "author":
        return _(
            'author is missing: say who wrote these rules, or write author: "" to leave it empty'
        )
    return _(
        "description is missing: say in a sentence what these rules are, or write"
        ' description: "" to leave it empty'
    )


def blank_name() -> str:
    return _("name is empty: give your house rules a name")


def reserved_name(name: str) -> str:
    return _(
        "name {name!r} is the name of rules this site ships: give your house rules a name"
        " of their own"
    ).format(name=name)


def reserved_author(author: str) -> str:
    return _(
        "author {author!r} is reserved for the rules this site ships: say who wrote these"
    ).format(author=author)


def duplicate_key(key: str, where: str) -> str:
    """A JSON object that sends ``key`` twice; ``where`` is the object's field ('' at the top)."""
    if where:
        return _("{key!r} is sent twice in {where}: send each key once").format(
            key=key, where=where
        )
    return _("{key!r} is sent twice: send each key once").format(key=key)


def duplicate_keys() -> str:
    return _("the JSON body sends a key twice")


def not_accepted_type(kind: str) -> str:
    """A body whose Content-Type the API does not read."""
    return _("{kind} is not accepted: send application/json or application/yaml").format(
        kind=kind or _("no Content-Type")
    )
