// A save form's one-time token across Back: the browser may load the form again
// (with a fresh token) when Back returns to it; the token the form was sent with is
// put back, so Save once more finds the rules already saved instead of saving twice.
(function () {
  "use strict";
  var token = document.querySelector("input[name=form_token]");
  if (!token || !token.form) { return; }
  var form = token.form;
  var key = "ginrules-form-token:" + location.pathname + location.search;
  var entries = window.performance && performance.getEntriesByType
    ? performance.getEntriesByType("navigation") : [];
  var back = entries.length > 0 && entries[0].type === "back_forward";
  try {
    var sent = window.sessionStorage.getItem(key);
    if (back && sent) { token.value = sent; }
  } catch (error) { /* no storage: the server still refuses a token used twice */ }
  form.addEventListener("submit", function () {
    try { window.sessionStorage.setItem(key, token.value); } catch (error) { /* as above */ }
  });
})();
