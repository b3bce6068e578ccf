"""The hello-world Flask app the web benchmark compares ginrules with (same server, same load)."""

from __future__ import annotations

from flask import Flask

app = Flask(__name__)


@app.get("/")
def hello() -> str:
    return "Hello, World!"
