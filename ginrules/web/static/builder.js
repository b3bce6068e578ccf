// The builder: after each change, ask the server (the same validation as saving)
// what differs from the base and show it in the save bar; show the rules that only
// matter under another choice (Oklahoma's, big gin's, a partnership's) when they do.
(function () {
  "use strict";
  var form = document.getElementById("builder");
  if (!form) { return; }
  var list = document.getElementById("live-changes");
  var none = document.getElementById("live-none");
  var count = document.getElementById("live-count");
  var warnings = document.getElementById("live-warnings");
  var timer = null;
  var wide = window.matchMedia("(min-width: 801px)");

  // On a wide screen there is room: the differences and every rule open.
  if (wide.matches) {
    document.getElementById("live").open = true;
    var more = document.getElementById("more-rules");
    if (more) { more.open = true; }
  }

  // A difference as the page words it: the server renders the sentence once, in the
  // page's language, with empty slots (<template id="live-change">) to fill here.
  var pattern = document.getElementById("live-change");

  function item(parts) {
    var li = document.createElement("li");
    li.appendChild(pattern.content.cloneNode(true));
    ["label", "after", "before"].forEach(function (slot) {
      var place = li.querySelector('[data-slot="' + slot + '"]');
      if (place) { place.replaceWith(document.createTextNode(parts[slot])); }
    });
    return li;
  }

  function counted(n) {
    if (n === 0) { return count.dataset.none; }
    if (n === 1) { return count.dataset.one; }
    return count.dataset.many.replace("{n}", String(n));
  }

  function show(data) {
    list.replaceChildren();
    var changed = {};
    data.changes.forEach(function (change) {
      list.appendChild(item(change));
      changed[change.knob] = true;
    });
    none.hidden = data.changes.length > 0;
    count.textContent = counted(data.changes.length);
    form.querySelectorAll(".field[data-knob]").forEach(function (field) {
      field.classList.toggle("changed", !!changed[field.dataset.knob]);
    });
    warnings.replaceChildren();
    (data.problems || []).forEach(function (text) {
      var li = document.createElement("li");
      li.className = "field-error";
      li.textContent = text;
      warnings.appendChild(li);
    });
    data.warnings.forEach(function (text) {
      var li = document.createElement("li");
      li.textContent = text;
      warnings.appendChild(li);
    });
  }

  // A field that does something only under another field's values.
  function applies() {
    form.querySelectorAll(".field[data-when]").forEach(function (field) {
      var other = form.elements[field.dataset.when];
      if (!other) { return; }
      var wanted = field.dataset.values.split(" ");
      var errored = field.classList.contains("has-error");
      field.hidden = wanted.indexOf(other.value) < 0 && !errored;
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
  form.addEventListener("change", function () {
    applies();
    refresh();
  });
  // Sent once: a second tap while the first save is on its way does nothing.
  form.addEventListener("submit", function (event) {
    if (form.dataset.sending === "yes") { event.preventDefault(); return; }
    form.dataset.sending = "yes";
    window.setTimeout(function () { form.dataset.sending = ""; }, 8000);
  });
  // Back to this page from the browser's history: it may be sent again (the server
  // answers with what the first sending saved).
  window.addEventListener("pageshow", function () { form.dataset.sending = ""; });
})();
