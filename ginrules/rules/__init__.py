"""Rulesets: load YAML, resolve ``extends:``, validate, compile, fingerprint, diff."""
