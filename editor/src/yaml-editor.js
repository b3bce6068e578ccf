// The YAML editor's code editor: CodeMirror 6 over the page's plain <textarea>.
//
// Progressive enhancement: the page is a working form without this script. With
// it, the textarea is hidden (and kept in sync for the form's POST) behind a
// CodeMirror editor with line numbers, YAML highlighting, live errors from the
// server (POST /build/yaml/check, the same validation as saving; CodeMirror maps
// the markers through each change until the next answer), completions and hover
// descriptions from the JSON Schema, and an error list whose items put the
// cursor on their line. Built by scripts/build-editor.sh into
// ginrules/web/static/yaml-editor.min.js; no eval, nothing from another origin.

import { EditorState } from "@codemirror/state";
import {
  EditorView,
  drawSelection,
  highlightActiveLine,
  highlightActiveLineGutter,
  hoverTooltip,
  keymap,
  lineNumbers,
} from "@codemirror/view";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { HighlightStyle, indentUnit, syntaxHighlighting } from "@codemirror/language";
import { yaml } from "@codemirror/lang-yaml";
import { forEachDiagnostic, lintGutter, lintKeymap, linter, setDiagnostics } from "@codemirror/lint";
import { autocompletion, completionKeymap } from "@codemirror/autocomplete";
import { tags as t } from "@lezer/highlight";

const CHECK_DELAY_MS = 400;

// Colours from the site's custom properties (site.css), so the editor follows
// the page's light and dark themes and keeps the site's contrast.
const highlighting = HighlightStyle.define([
  { tag: t.definition(t.propertyName), color: "var(--accent)", fontWeight: "600" },
  { tag: [t.string, t.special(t.string), t.content], color: "var(--ink)" },
  { tag: t.lineComment, color: "var(--soft)", fontStyle: "italic" },
  { tag: [t.separator, t.punctuation, t.meta, t.squareBracket, t.brace], color: "var(--soft)" },
  { tag: [t.labelName, t.typeName, t.keyword, t.attributeValue], color: "var(--accent)" },
]);

// -- live errors -----------------------------------------------------------------

function lintMessage(found) {
  let text = found.message || "";
  if (found.expected) text += " (expected " + found.expected + ")";
  if (found.hint) text += "; " + found.hint;
  return text;
}

// A server diagnostic (1-based line and column) as a range of `doc`: from its
// column to the end of its line; a diagnostic without a line marks line 1.
function toRange(doc, found) {
  const number = Math.min(Math.max(found.line || 1, 1), doc.lines);
  const line = doc.line(number);
  const to = line.from + line.text.replace(/\s+$/, "").length;
  let from = found.column ? Math.min(line.from + found.column - 1, to) : line.from;
  if (from >= to) from = line.from;
  return {
    from,
    to: Math.max(from, to),
    severity: found.severity === "warning" ? "warning" : "error",
    message: lintMessage(found),
  };
}

function current(state) {
  const kept = [];
  forEachDiagnostic(state, (d, from, to) => kept.push({ ...d, from, to }));
  return kept;
}

function checker(url, token) {
  return async (view) => {
    const state = view.state;
    let answer;
    try {
      answer = await fetch(url, {
        method: "POST",
        body: JSON.stringify({ yaml: state.doc.toString() }),
        headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": token },
        credentials: "same-origin",
      });
    } catch (offline) {
      return current(view.state); // offline: saving still validates
    }
    const data = await answer.json().catch(() => null);
    if (!data) return current(view.state);
    if (!answer.ok) {
      // Too many checks or an expired form: keep what is shown; too large: say so.
      if (answer.status !== 413) return current(view.state);
      return [toRange(state.doc, { line: 1, message: data.error, severity: "error" })];
    }
    return data.diagnostics.map((found) => toRange(state.doc, found));
  };
}

// -- the schema: completions and hover ---------------------------------------------

let schema = null;

function loadSchema(url) {
  fetch(url, { headers: { Accept: "application/schema+json, application/json" } })
    .then((answer) => (answer.ok ? answer.json() : null))
    .then((data) => { schema = data; })
    .catch(() => { /* no completions: the editor still works */ });
}

// The schema node whose properties are the keys at `indent` on line `number`:
// the root at indent 0, else the value of the nearest less-indented `key:` above.
function parentNode(doc, number, indent) {
  if (!schema) return null;
  if (indent === 0) return schema;
  for (let n = number - 1; n >= 1; n--) {
    const text = doc.line(n).text;
    if (!text.trim() || /^\s*#/.test(text)) continue;
    const own = text.length - text.replace(/^ +/, "").length;
    if (own >= indent) continue;
    const key = /^\s*([A-Za-z_][\w-]*)\s*:\s*(#.*)?$/.exec(text);
    if (!key) return null;
    const above = parentNode(doc, n, own);
    const node = above && above.properties && above.properties[key[1]];
    return node || null;
  }
  return null;
}

function typeOf(node) {
  if (node.enum) return node.enum.join(" | ");
  const type = Array.isArray(node.type) ? node.type.join(" | ") : node.type;
  if (node.minimum !== undefined && node.maximum !== undefined) {
    return type + " " + node.minimum + "–" + node.maximum;
  }
  return type || "";
}

function detailOf(node) {
  return node.title || typeOf(node);
}

// Schema text with `code` spans, as DOM (never as HTML).
function prose(text, tag) {
  const element = document.createElement(tag);
  String(text || "").split("`").forEach((part, index) => {
    if (index % 2) {
      const code = document.createElement("code");
      code.textContent = part;
      element.appendChild(code);
    } else if (part) {
      element.appendChild(document.createTextNode(part));
    }
  });
  return element;
}

function describe(name, node) {
  const box = document.createElement("div");
  box.className = "ye-info";
  const title = document.createElement("strong");
  title.textContent = node.title ? node.title + " (" + name + ")" : name;
  box.appendChild(title);
  if (node.description) box.appendChild(prose(node.description, "p"));
  const facts = [];
  if (!node.properties && typeOf(node)) facts.push(typeOf(node));
  if (node.default !== undefined && node.default !== null && typeof node.default !== "object") {
    facts.push("default " + String(node.default));
  }
  if (facts.length) {
    const more = document.createElement("p");
    more.className = "ye-facts";
    more.textContent = facts.join(" · ");
    box.appendChild(more);
  }
  return box;
}

function valuesOf(name, node, bases) {
  if (node.enum) return node.enum.map(String);
  const types = Array.isArray(node.type) ? node.type : [node.type];
  if (types.includes("boolean")) return ["true", "false"];
  if (name === "extends") return bases;
  return [];
}

function completions(bases) {
  return (context) => {
    if (!schema) return null;
    const doc = context.state.doc;
    const line = doc.lineAt(context.pos);
    const before = line.text.slice(0, context.pos - line.from);
    const after = line.text.slice(context.pos - line.from);
    const key = /^( *)([A-Za-z_]*)$/.exec(before);
    if (key) {
      if (!key[2] && !context.explicit) return null;
      const node = parentNode(doc, line.number, key[1].length);
      if (!node || !node.properties) return null;
      const rest = /^[\w-]*/.exec(after)[0];
      const hasColon = /^[\w-]*\s*:/.test(after);
      const inner = " ".repeat(key[1].length + 2);
      return {
        from: context.pos - key[2].length,
        to: context.pos + rest.length,
        options: Object.entries(node.properties).map(([name, sub]) => ({
          label: name,
          type: sub.properties ? "namespace" : "property",
          detail: detailOf(sub),
          info: () => describe(name, sub),
          apply: hasColon ? name : sub.properties ? name + ":\n" + inner : name + ": ",
        })),
        validFor: /^[\w-]*$/,
      };
    }
    const value = /^( *)([A-Za-z_][\w-]*):\s+([\w-]*)$/.exec(before);
    if (value) {
      const node = parentNode(doc, line.number, value[1].length);
      const sub = node && node.properties && node.properties[value[2]];
      if (!sub) return null;
      const options = valuesOf(value[2], sub, bases).map((label) => ({
        label,
        type: "enum",
        detail: label === String(sub.default) ? "default" : undefined,
      }));
      if (!options.length) return null;
      return { from: context.pos - value[3].length, options, validFor: /^[\w-]*$/ };
    }
    return null;
  };
}

const schemaHover = hoverTooltip((view, pos) => {
  const line = view.state.doc.lineAt(pos);
  const key = /^( *)([A-Za-z_][\w-]*)\s*:/.exec(line.text);
  if (!key) return null;
  const start = line.from + key[1].length;
  const end = start + key[2].length;
  if (pos < start || pos > end) return null;
  const node = parentNode(view.state.doc, line.number, key[1].length);
  const sub = node && node.properties && node.properties[key[2]];
  if (!sub) return null;
  return { pos: start, end, above: true, create: () => ({ dom: describe(key[2], sub) }) };
});

// -- the page ----------------------------------------------------------------------

function goTo(view, pos) {
  view.dispatch({
    selection: { anchor: pos },
    effects: EditorView.scrollIntoView(pos, { y: "center" }),
  });
  view.focus();
}

function start() {
  const textarea = document.getElementById("yaml");
  const form = textarea && textarea.form;
  if (!form || !form.dataset.check || typeof fetch !== "function") return;
  const holder = textarea.closest(".editor") || textarea;
  const token = form.elements.csrf_token ? form.elements.csrf_token.value : "";
  const bases = (form.dataset.bases || "").split(" ").filter(Boolean);
  const help = document.getElementById("yaml-keys");
  const label = textarea.getAttribute("aria-label") || "YAML";
  const links = []; // where each listed error's line is now
  const seeds = []; // the listed errors, shown at once (the first check replaces them)

  const state = EditorState.create({
    doc: textarea.value,
    extensions: [
      lineNumbers(),
      highlightActiveLineGutter(),
      highlightActiveLine(),
      drawSelection(),
      history(),
      EditorState.tabSize.of(2),
      indentUnit.of("  "),
      EditorView.lineWrapping,
      yaml(),
      syntaxHighlighting(highlighting),
      lintGutter(),
      linter(checker(form.dataset.check, token), { delay: CHECK_DELAY_MS }),
      autocompletion({ override: [completions(bases)], icons: false }),
      schemaHover,
      keymap.of([...completionKeymap, ...lintKeymap, ...defaultKeymap, ...historyKeymap, indentWithTab]),
      EditorView.contentAttributes.of({
        "aria-label": label,
        ...(help ? { "aria-describedby": help.id } : {}),
      }),
      EditorView.updateListener.of((update) => {
        if (!update.docChanged) return;
        textarea.value = update.state.doc.toString();
        // The server's list names lines of the text it was sent: follow that text.
        for (const link of links) link.pos = update.changes.mapPos(link.pos);
      }),
    ],
  });
  const view = new EditorView({ state });
  holder.parentNode.insertBefore(view.dom, holder);
  holder.hidden = true;
  if (help) help.hidden = false;

  // The error list after a failed save: each line's link puts the cursor there.
  document.querySelectorAll("#yaml-errors a[data-line]").forEach((link) => {
    const found = { line: Number(link.dataset.line), column: Number(link.dataset.column) || 0 };
    const range = toRange(state.doc, found);
    const item = { pos: range.from };
    links.push(item);
    const text = link.closest("li").querySelector(".error-text");
    seeds.push({ ...range, message: text ? text.textContent : link.textContent });
    link.addEventListener("click", (event) => {
      event.preventDefault();
      goTo(view, Math.min(item.pos, view.state.doc.length));
    });
  });
  if (seeds.length) view.dispatch(setDiagnostics(view.state, seeds));

  form.addEventListener("submit", () => { textarea.value = view.state.doc.toString(); });
  if (form.dataset.schema) loadSchema(form.dataset.schema);
  // For the page's tests and the curious: the editor behind the textarea.
  textarea.editorView = view;
  textarea.diagnosticLines = () => {
    const lines = [];
    forEachDiagnostic(view.state, (d, from) => lines.push([view.state.doc.lineAt(from).number, d.severity]));
    return lines;
  };
}

if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", start);
} else {
  start();
}
