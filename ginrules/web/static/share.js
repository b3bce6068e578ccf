// The share page, right after saving: Copy and Share for the short link and the
// private edit link, and a reminder before leaving while the edit link (shown
// only once) has not been kept. Without JavaScript both links are plain
// read-only fields to select; these buttons appear only when this runs. Every word
// it shows is the page's own, in the page's language (data- attributes).
(function () {
  "use strict";

  var page = document.getElementById("share");
  if (!page) { return; }
  var keepField = page.dataset.keep ? document.getElementById(page.dataset.keep) : null;
  var keptBox = keepField ? page.querySelector(".kept input") : null;
  var kept = !keepField;

  function markKept() {
    kept = true;
    if (keptBox) { keptBox.checked = true; }
  }

  // The clipboard API needs a secure context (https, or this computer); a phone on
  // http://192.168.x.y has none, so copying the selected field is the fallback.
  function copyText(text, field) {
    function byCommand() {
      field.focus();
      field.select();
      field.setSelectionRange(0, text.length);
      var done = false;
      try { done = document.execCommand("copy"); } catch (error) { done = false; }
      return done;
    }
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(text).then(
        function () { return true; },
        function () { return byCommand(); }
      );
    }
    return Promise.resolve(byCommand());
  }

  function say(note, text, bad) {
    note.textContent = text;
    note.classList.toggle("bad", !!bad);
  }

  function wire(box) {
    var field = document.getElementById(box.dataset.link);
    var note = box.nextElementSibling;
    if (!field || !note) { return; }
    var isKeep = field === keepField;

    function copied(done) {
      if (done) {
        say(note, box.dataset.copied);
        if (isKeep) { markKept(); }
      } else {
        say(note, page.dataset.notCopied, true);
        field.focus();
        field.select();
      }
    }

    box.addEventListener("click", function (event) {
      var button = event.target.closest("button[data-action]");
      if (!button) { return; }
      var url = field.value;
      if (button.dataset.action === "copy") {
        copyText(url, field).then(copied);
        return;
      }
      if (typeof navigator.share === "function") {
        Promise.resolve()
          .then(function () { return navigator.share({ title: box.dataset.title || document.title, url: url }); })
          .then(function () {
            say(note, box.dataset.shared);
            if (isKeep) { markKept(); }
          }, function (error) {
            if (error && error.name === "AbortError") {
              say(note, page.dataset.notShared);
            } else {
              copyText(url, field).then(copied);
            }
          });
      } else {
        // No Web Share here (most desktop browsers): the clipboard instead.
        copyText(url, field).then(copied);
      }
    });
    // Copied by hand (selected, then the menu's Copy) counts too.
    field.addEventListener("copy", function () { if (isKeep) { markKept(); } });
    field.addEventListener("focus", function () { field.select(); });
    box.hidden = false;
  }

  Array.prototype.forEach.call(page.querySelectorAll(".copy-share"), wire);

  if (keepField && keptBox) {
    keptBox.closest(".kept").hidden = false;
    keptBox.addEventListener("change", function () { kept = keptBox.checked; });
    // The edit link is never shown again: ask before the page goes.
    window.addEventListener("beforeunload", function (event) {
      if (kept) { return undefined; }
      event.preventDefault();
      event.returnValue = "";
      return "";
    });
  }
})();
