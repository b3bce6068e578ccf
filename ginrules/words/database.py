"""What the site and ``ginrules db`` say when the database is away, slow or damaged."""

from __future__ import annotations

from ginrules.words.i18n import _


def not_answering() -> str:
    """A request that needs the database while it does not answer (503)."""
    return _(
        "The database is not answering just now. Try again in a few seconds; "
        "the shipped rulesets and their sheets still work."
    )


def busy() -> str:
    """Every database connection is taken and none came free in time (503)."""
    return _("The site is too busy just now; nothing was changed. Try again in a few seconds.")


def damaged() -> str:
    """The database answered that what it holds is damaged (503)."""
    return _(
        "The saved house rules cannot be read just now: the database is damaged. "
        "Nothing was changed; the shipped rulesets and their sheets still work."
    )


def damaged_file(path: str, detail: str) -> str:
    """``ginrules serve`` or ``ginrules db`` refusing a damaged SQLite file."""
    return _(
        "error: the database file {path} is damaged ({detail}), so the site does not start on "
        "it. Restore it from a backup; or recover what can still be read, into a new file: "
        "sqlite3 {path} .recover | sqlite3 recovered.db  then check what recovered.db holds and "
        "move it into the place of the damaged file (or point DATABASE_URL at it)."
    ).format(path=path, detail=detail)


def empty_file(path: str) -> str:
    """``ginrules serve`` refusing a zero-byte SQLite file."""
    return _(
        "error: the database file {path} is empty (0 bytes), so it holds no house rules and the "
        "site does not start on it. If it should hold some, restore it from a backup. To make "
        "it a new, empty database, run  ginrules db upgrade  (with the same DATABASE_URL)."
    ).format(path=path)


def cannot_open_file(path: str, detail: str) -> str:
    """A SQLite file that cannot be opened or read at all."""
    return _("error: cannot read the database file {path}: {detail}").format(
        path=path, detail=detail
    )


def cut_statement(seconds: float) -> str:
    """The operator's log line when a statement is cut off at its deadline."""
    return _(
        "a database statement ran past its deadline of {seconds:.1f} s: its connection was cut; "
        "the database is treated as down for a few seconds"
    ).format(seconds=seconds)
