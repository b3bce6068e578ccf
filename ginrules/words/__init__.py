"""Every sentence a person reads, in one package.

The engine, the rules and the schema return data (outcomes, reasons, events,
departures); this package turns them into words, and the terminal, the rule
sheets and the web site print what it makes. Each message is a whole
sentence with named ``{placeholders}`` passed through one translation
function (:func:`ginrules.words.i18n.gettext`), so a language is a catalogue,
not a code change.

- :mod:`~ginrules.words.i18n`: the translation function, the language, lists, numbers.
- :mod:`~ginrules.words.extract`: pybabel's extractors for words kept in data (schema, rulesets).
- :mod:`~ginrules.words.languages`: the language switch and the table language, worded.
- :mod:`~ginrules.words.values`: knob values and outcome names.
- :mod:`~ginrules.words.cards`: cards, melds and arrangements as text.
- :mod:`~ginrules.words.showdown`: the points of a hand and a showdown, told.
- :mod:`~ginrules.words.game`: a game at the terminal: turns, moves, scores, results.
- :mod:`~ginrules.words.turns`: the person's turn at the terminal: the table, the moves.
- :mod:`~ginrules.words.departures`: a departure from the published rules.
- :mod:`~ginrules.words.diagnostics`: a ruleset's diagnostics as people read them.
- :mod:`~ginrules.words.rule_problems`: the rules layer's problem patterns in the reader's language.
- :mod:`~ginrules.words.problems`: why an action, an entry, a hand or a record is refused.
- :mod:`~ginrules.words.examples`: the words of a sheet's worked examples.
- :mod:`~ginrules.words.simulation`: what a house rule changes, from two simulations.
- :mod:`~ginrules.words.tables`: a card table: why it cannot start, what a request lacks.
"""
