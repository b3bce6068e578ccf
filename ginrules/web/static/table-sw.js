// The card table's service worker: a table page opens from the home screen and
// through short drops of the wifi. Pages are fetched from the network first
// (the score must be fresh) and the last copy is shown when the network is away;
// the site's script and styles are kept. Changes are never cached: the page
// keeps unsent hands itself and sends them when the connection returns.
// It shows no words of its own: a page kept offline is the page as it was last
// shown, in its language, and with nothing kept the browser says it is offline.
"use strict";

// v2: the table page's script reads its words from the page (issue 16).
var CACHE = "ginrules-table-v2";
var SHELL = ["/static/site.css", "/static/table.css", "/static/table.js", "/static/favicon.svg"];

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) { return cache.addAll(SHELL); }));
  self.skipWaiting();
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (n) { return n !== CACHE; }).map(function (n) { return caches.delete(n); }));
  }).then(function () { return self.clients.claim(); }));
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") { return; }
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) { return; }
  if (request.mode === "navigate" && url.pathname.indexOf("/t/") === 0) {
    event.respondWith(fetch(request).then(function (answer) {
      if (answer.ok) {
        var copy = answer.clone();
        caches.open(CACHE).then(function (cache) { cache.put(url.pathname, copy); });
      }
      return answer;
    }).catch(function () {
      return caches.match(url.pathname).then(function (kept) { return kept || Response.error(); });
    }));
  } else if (SHELL.indexOf(url.pathname) >= 0) {
    event.respondWith(caches.match(url.pathname).then(function (kept) {
      var fresh = fetch(request).then(function (answer) {
        if (answer.ok) { var copy = answer.clone(); caches.open(CACHE).then(function (c) { c.put(url.pathname, copy); }); }
        return answer;
      });
      return kept || fresh;
    }));
  }
});
