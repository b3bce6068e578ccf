// The builder's live differences: after each change, ask the server (the same
// validation as saving) what differs from the base, and show it beside the form.
(function () {
  "use strict";
  var form = document.getElementById("builder");
  if (!form) { return; }
  var list = document.getElementById("live-changes");
  var none = document.getElementById("live-none");
  var warnings = document.getElementById("live-warnings");
  var timer = null;

  function item(parts) {
    var li = document.createElement("li");
    var strong = document.createElement("strong");
    strong.textContent = parts.label;
    li.appendChild(strong);
    li.appendChild(document.createTextNode(": " + parts.after + " "));
    var meta = document.createElement("span");
    meta.className = "meta";
    meta.textContent = "(" + form.elements.base.value + ": " + parts.before + ")";
    li.appendChild(meta);
    return li;
  }

  function show(data) {
    list.replaceChildren();
    var changed = {};
    data.changes.forEach(function (change) {
      list.appendChild(item(change));
      changed[change.knob] = true;
    });
    none.hidden = data.changes.length > 0;
    form.querySelectorAll(".field[data-knob]").forEach(function (field) {
      field.classList.toggle("changed", !!changed[field.dataset.knob]);
    });
    warnings.replaceChildren();
    data.warnings.forEach(function (text) {
      var li = document.createElement("li");
      li.textContent = text;
      warnings.appendChild(li);
    });
    Object.keys(data.errors).forEach(function (name) {
      var li = document.createElement("li");
      li.className = "field-error";
      li.textContent = name + ": " + data.errors[name].join("; ");
      warnings.appendChild(li);
    });
  }

  function refresh() {
    var body = new FormData(form);
    fetch(form.dataset.preview, {
      method: "POST",
      body: body,
      headers: {"X-CSRFToken": form.elements.csrf_token.value, "Accept": "application/json"},
      credentials: "same-origin"
    }).then(function (response) {
      return response.ok ? response.json() : null;
    }).then(function (data) {
      if (data) { show(data); }
    }).catch(function () { /* offline: saving still validates */ });
  }

  form.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(refresh, 250);
  });
  form.addEventListener("change", refresh);
})();
