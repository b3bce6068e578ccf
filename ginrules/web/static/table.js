// The card table on a phone: live score, entering hands, undo and edit, offline queue.
//
// The server renders the score (web/table_score.html) and scores every hand
// with the engine; this script only collects what the table reports, keeps
// it while the wifi is away, and swaps in the score each phone is pushed.
// A change goes out with the number of changes this phone has seen and a
// request key: a retry is the same change, and a phone that saw an old score
// is told and shown the new one instead of overwriting it.
// Every word shown comes from the server, in the page's language: the rendered
// score, the answers' messages, and the page's words (#table-words), whose
// {placeholders} this script fills. None counts anything: the server words counts.
(function () {
  "use strict";

  var root = document.getElementById("table");
  if (!root) { return; }
  var slug = root.dataset.slug;
  var rules = JSON.parse(document.getElementById("table-rules").textContent);
  var state = JSON.parse(document.getElementById("table-state").textContent);
  var WORDS = JSON.parse(document.getElementById("table-words").textContent);
  var keyName = "ginrules:key:" + slug;
  var queueName = "ginrules:queue:" + slug;
  var meName = "ginrules:me:" + slug;
  var RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"];
  var SUITS = [["C", "\u2663"], ["D", "\u2666"], ["H", "\u2665"], ["S", "\u2660"]];
  // What a card shows for each rank, in the page's language (B D K in German).
  var RANK_SHOWN = JSON.parse(document.getElementById("card-faces").textContent);

  // -- storage that survives a reload (and a phone without it) -------------------
  function load(name, fallback) {
    try {
      var text = window.localStorage.getItem(name);
      return text === null ? fallback : JSON.parse(text);
    } catch (e) { return fallback; }
  }
  function save(name, value) {
    try { window.localStorage.setItem(name, JSON.stringify(value)); } catch (e) { /* private mode */ }
  }

  // The scoring key arrives in the link's fragment (never sent to a server).
  var match = /(?:^#|&)key=([A-Za-z0-9_\-]+)/.exec(window.location.hash);
  if (match) {
    save(keyName, match[1]);
    window.history.replaceState(null, "", window.location.pathname + window.location.search);
  }
  var key = load(keyName, null);
  var queue = load(queueName, []);

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (name) {
      if (name === "text") { node.textContent = attrs[name]; }
      else if (attrs[name] !== null && attrs[name] !== undefined && attrs[name] !== false) {
        node.setAttribute(name, attrs[name] === true ? "" : attrs[name]);
      }
    });
    (children || []).forEach(function (child) { if (child) { node.appendChild(child); } });
    return node;
  }
  function requestKey() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }
  // A sentence of the page's words with its {placeholders} filled.
  function words(key, values) {
    return WORDS[key].replace(/\{(\w+)\}/g, function (whole, name) {
      return values && values[name] !== undefined ? String(values[name]) : whole;
    });
  }
  // A URL of the page's data-* with more of a query.
  function withQuery(url, query) { return url + (url.indexOf("?") >= 0 ? "&" : "?") + query; }
  function cardName(card) {
    var rank = card.slice(0, -1), suit = card.slice(-1);
    var symbol = SUITS.filter(function (s) { return s[0] === suit; })[0][1];
    return (RANK_SHOWN[rank] || rank) + symbol;
  }

  // -- showing the score ---------------------------------------------------------
  var scoreBox = document.getElementById("score");
  var handsBox = document.getElementById("hands");
  var connection = document.getElementById("connection");
  var pendingBox = document.getElementById("pending");
  var enter = document.getElementById("enter");
  var nextGame = document.getElementById("next-game");

  function showScorerParts() {
    document.querySelectorAll(".scorer-only").forEach(function (node) { node.hidden = !key; });
    document.getElementById("viewer-note").hidden = !!key;
    nextGame.hidden = !key || !state.finished || !!state.next_game;
  }

  function apply(payload) {
    if (!payload || payload.last_event < state.last_event) { return; }
    var handBefore = state.hands.length, eventsBefore = state.last_event;
    state = payload;
    if (payload.html) {
      scoreBox.innerHTML = payload.html.score;
      handsBox.innerHTML = payload.html.hands;
    }
    showScorerParts();
    if (payload.last_event !== eventsBefore) {
      var editing = form && form.number;
      if (!editing || state.hands.length !== handBefore || payload.finished) { buildForm(null); }
    }
  }

  function refresh() {
    return fetch(root.dataset.now, { cache: "no-store" })
      .then(function (answer) { return answer.ok ? answer.json() : null; })
      .then(function (payload) { if (payload) { apply(payload); } })
      .catch(function () { /* offline: the stream or the next try catches up */ });
  }

  function say(text, kind) {
    connection.hidden = !text;
    connection.textContent = text || "";
    connection.className = "connection " + (kind || "");
  }

  // -- live updates: Server-Sent Events, polling when the server is busy ----------
  var stream = null, pollTimer = null;
  function follow() {
    if (stream) { stream.close(); }
    stream = new window.EventSource(withQuery(root.dataset.live, "after=" + state.last_event));
    stream.addEventListener("table", function (event) {
      say("", "");
      apply(JSON.parse(event.data));
    });
    stream.onopen = function () { say("", ""); if (pollTimer) { clearInterval(pollTimer); pollTimer = null; } };
    stream.onerror = function () {
      if (!navigator.onLine) { say(words("offline"), "offline"); }
      if (stream.readyState === window.EventSource.CLOSED) {
        // Refused (a busy server): ask every few seconds, and try the stream again later.
        if (!pollTimer) { pollTimer = setInterval(refresh, 3000); }
        setTimeout(follow, 8000);
      }
    };
  }

  // -- the queue of changes not yet saved -----------------------------------------
  var sending = false;
  function showQueue() {
    pendingBox.innerHTML = "";
    pendingBox.hidden = queue.length === 0;
    if (!queue.length) { return; }
    pendingBox.appendChild(el("strong", { text: words("unsaved") }));
    var list = el("ul");
    queue.forEach(function (item) {
      // A problem is a key of the page's words (older queues kept its text).
      var problem = item.problem && WORDS[item.problem] ? words(item.problem) : item.problem;
      var text = problem ? words("queued_problem", { change: item.label, problem: problem }) : words("queued", { change: item.label });
      list.appendChild(el("li", { text: text }, [
        item.conflict ? el("button", { type: "button", "class": "button small", "data-rebase": item.id, text: words("rebase") }) : null,
        el("button", { type: "button", "class": "button small", "data-drop": item.id, text: words("drop") })
      ]));
    });
    pendingBox.appendChild(list);
  }

  function post(url, body) {
    var headers = { "Content-Type": "application/json", "X-Scorer-Key": key };
    var me = load(meName, "");
    if (me) { headers["X-Player"] = me; }
    return fetch(url, { method: "POST", headers: headers, body: JSON.stringify(body), cache: "no-store" });
  }

  function flush() {
    if (sending || !queue.length || !key) { showQueue(); return; }
    var item = queue[0];
    if (item.conflict) { showQueue(); return; }
    sending = true;
    var url = item.next ? root.dataset.next : root.dataset.events;
    var body = item.next
      ? { seen: item.seen, rules: item.next, request_key: item.id }
      : { seen: item.seen, event: item.event, request_key: item.id };
    post(url, body).then(function (answer) {
      return answer.json().catch(function () { return {}; }).then(function (data) {
        sending = false;
        if (answer.status === 201) {
          queue.shift(); save(queueName, queue);
          if (item.next && data.next_game) { goTo(data.next_game.slug); return; }
          if (!queue.length && !(form && form.number)) { buildForm(null); }  // it waited for this
          refresh().then(function () { flush(); });
        } else if (answer.status === 409) {
          item.conflict = true;
          item.problem = "conflict";
          save(queueName, queue);
          if (data.table) { refresh(); }
        } else if (answer.status === 422 || answer.status === 400) {
          queue.shift(); save(queueName, queue);
          var error = (data.errors && data.errors[0]) || { field: "", message: data.error || words("refused") };
          if (item.event && item.event.kind !== "undo") { buildForm(item, error); }
          else { say(error.message, "bad"); }
        } else if (answer.status === 401 || answer.status === 403) {
          item.problem = "wrong_key";
          save(queueName, queue);
        } else {
          item.problem = "server";
          save(queueName, queue);
          setTimeout(flush, 5000);
        }
        showQueue();
      });
    }).catch(function () {
      sending = false;
      showQueue();
      say(words("offline_unsaved"), "offline");
    });
  }

  function enqueue(item) {
    item.id = requestKey();
    item.seen = state.last_event;
    queue.push(item);
    save(queueName, queue);
    showQueue();
    flush();
  }

  function goTo(newSlug) {
    if (key) { save("ginrules:key:" + newSlug, key); }
    var me = load(meName, "");
    if (me) { save("ginrules:me:" + newSlug, me); }
    window.location.href = "/t/" + newSlug;
  }

  // -- the hand entry form ----------------------------------------------------------
  var form = null;

  function segmented(name, options, chosen, onChange) {
    var group = el("div", { "class": "segmented", role: "group", "data-group": name });
    options.forEach(function (option) {
      var button = el("button", {
        type: "button", "class": "seg" + (option[0] === chosen ? " on" : ""),
        "aria-pressed": option[0] === chosen ? "true" : "false", "data-value": option[0], text: option[1]
      });
      button.addEventListener("click", function () {
        group.querySelectorAll(".seg").forEach(function (b) { b.classList.remove("on"); b.setAttribute("aria-pressed", "false"); });
        button.classList.add("on"); button.setAttribute("aria-pressed", "true");
        onChange(option[0]);
      });
      group.appendChild(button);
    });
    return group;
  }

  function fieldBox(label, field, control) {
    return el("div", { "class": "big-field", "data-field": field }, [
      el("label", { text: label }), control, el("p", { "class": "field-error", hidden: true })
    ]);
  }

  function upcardPicker(part, field) {
    var rank = el("select", { "aria-label": words("upcard_rank"), name: field + ".rank" }, [el("option", { value: "", text: words("rank") })]);
    RANKS.forEach(function (r) { rank.appendChild(el("option", { value: r, text: RANK_SHOWN[r] || r })); });
    var suit = el("select", { "aria-label": words("upcard_suit"), name: field + ".suit" }, [el("option", { value: "", text: words("suit") })]);
    SUITS.forEach(function (s) { suit.appendChild(el("option", { value: s[0], text: s[1] })); });
    if (part.upcard) { rank.value = part.upcard.slice(0, -1); suit.value = part.upcard.slice(-1); }
    function changed() { part.upcard = rank.value && suit.value ? rank.value + suit.value : null; }
    rank.addEventListener("change", changed); suit.addEventListener("change", changed);
    return el("div", { "class": "upcard" }, [rank, suit]);
  }

  // One two-player hand of the deal: its outcome by counts, or its cards.
  function handPart(index, seating, given) {
    var names = seating.seats.map(function (seat) { return state.players[seat]; });
    var part = {
      seats: seating.seats,
      way: given && given.knocker ? "cards" : "counts",
      end: given && given.end ? given.end : (given && given.knocker ? "knock" : null),
      ended_by: given ? given.ended_by : null,
      knocker_deadwood: given && given.knocker_deadwood !== undefined ? given.knocker_deadwood : "",
      defender_deadwood: given && given.defender_deadwood !== undefined ? given.defender_deadwood : "",
      upcard: given ? given.upcard : null,
      knocker: given && given.knocker ? given.knocker.slice() : [],
      defender: given && given.defender ? given.defender.slice() : [],
      picking: "knocker"
    };
    var box = el("fieldset", { "class": "hand-part", "data-entry": index });
    var dealer = seating.out === null || seating.out === undefined ? seating.dealer : seating.out;
    var title = words("deal_title", { first: names[0], second: names[1], name: state.players[dealer] });
    box.appendChild(el("legend", { text: title }));
    var body = el("div");

    function render() {
      body.innerHTML = "";
      var prefix = "entries." + index + ".";
      body.appendChild(segmented("way", [["counts", words("by_counts")], ["cards", words("by_cards")]], part.way, function (v) { part.way = v; render(); }));
      if (part.way === "counts") {
        var ends = [["knock", words("knock")], ["gin", words("gin")]];
        if (rules.big_gin) { ends.push(["big_gin", words("big_gin")]); }
        ends.push(["dead", words("dead")]);
        body.appendChild(fieldBox(words("how_ended"), prefix + "end", segmented("end", ends, part.end, function (v) { part.end = v; render(); })));
        if (part.end && part.end !== "dead") {
          body.appendChild(fieldBox(words(part.end === "knock" ? "who_knocked" : "who_went_gin"), prefix + "ended_by",
            segmented("who", seating.seats.map(function (seat) { return [seat, state.players[seat]]; }), part.ended_by, function (v) { part.ended_by = v; render(); })));
          var named = part.ended_by !== null && part.ended_by !== undefined;
          var otherSeat = part.ended_by === seating.seats[0] ? seating.seats[1] : seating.seats[0];
          if (part.end === "knock") {
            var knockerLabel = named ? words("deadwood", { name: state.players[part.ended_by] }) : words("knocker_deadwood");
            body.appendChild(fieldBox(knockerLabel, prefix + "knocker_deadwood", number(part, "knocker_deadwood")));
          }
          var otherLabel = part.end === "knock"
            ? (named ? words("after_layoffs", { name: state.players[otherSeat] }) : words("defender_after_layoffs"))
            : (named ? words("deadwood", { name: state.players[otherSeat] }) : words("defender_deadwood"));
          body.appendChild(fieldBox(otherLabel, prefix + "defender_deadwood", number(part, "defender_deadwood")));
        }
      } else {
        body.appendChild(fieldBox(words("who_ended"), prefix + "ended_by",
          segmented("who", seating.seats.map(function (seat) { return [seat, state.players[seat]]; }), part.ended_by, function (v) { part.ended_by = v; render(); })));
        body.appendChild(cardsPicker(part, prefix, seating, render));
      }
      if (rules.oklahoma && !(part.way === "counts" && part.end === "dead")) {
        body.appendChild(fieldBox(words("upcard"), prefix + "upcard", upcardPicker(part, prefix + "upcard")));
      } else if (part.way === "counts" && part.end === "knock") {
        body.appendChild(el("p", { "class": "meta", text: words("knock_limit", { limit: rules.knock_limit }) }));
      }
    }
    render();
    box.appendChild(body);
    return { box: box, part: part };
  }

  function number(part, name) {
    var input = el("input", { type: "number", inputmode: "numeric", min: "0", max: "200", step: "1", value: part[name], "aria-label": words(name + "_input") });
    input.addEventListener("input", function () { part[name] = input.value; });
    return input;
  }

  function cardsPicker(part, prefix, seating, render) {
    var wrap = el("div", { "class": "cards-entry" });
    var knocker = part.ended_by === null || part.ended_by === undefined ? words("knocker") : state.players[part.ended_by];
    var other = part.ended_by === seating.seats[0] ? seating.seats[1] : seating.seats[0];
    var defender = part.ended_by === null || part.ended_by === undefined ? words("other_player") : state.players[other];
    wrap.appendChild(segmented("picking", [
      ["knocker", words("picked", { name: knocker, count: part.knocker.length })],
      ["defender", words("picked", { name: defender, count: part.defender.length })]
    ], part.picking, function (v) { part.picking = v; render(); }));
    wrap.appendChild(el("p", { "class": "meta", text: words("tap_cards", { name: part.picking === "knocker" ? knocker : defender }) }));
    var grid = el("div", { "class": "card-grid", "data-field": prefix + "knocker" });
    SUITS.forEach(function (suit) {
      RANKS.forEach(function (rank) {
        var card = rank + suit[0];
        var inKnocker = part.knocker.indexOf(card) >= 0, inDefender = part.defender.indexOf(card) >= 0;
        var button = el("button", {
          type: "button", "class": "pick suit-" + suit[0] + (inKnocker ? " knocker" : "") + (inDefender ? " defender" : ""),
          "data-card": card, "aria-pressed": inKnocker || inDefender ? "true" : "false", text: cardName(card)
        });
        button.addEventListener("click", function () {
          var mine = part[part.picking], theirs = part[part.picking === "knocker" ? "defender" : "knocker"];
          if (theirs.indexOf(card) >= 0) { return; }
          var at = mine.indexOf(card);
          if (at >= 0) { mine.splice(at, 1); } else { mine.push(card); }
          render();
        });
        grid.appendChild(button);
      });
    });
    wrap.appendChild(grid);
    wrap.appendChild(el("p", { "class": "field-error", hidden: true, "data-field": prefix + "defender" }));
    return wrap;
  }

  function entryJson(part) {
    var upcard = rules.oklahoma ? part.upcard : null;
    if (part.way === "cards") {
      return { ended_by: part.ended_by === null ? null : Number(part.ended_by), knocker: part.knocker, defender: part.defender, upcard: upcard, declared: true };
    }
    if (part.end === "dead") { return { end: "dead", ended_by: null, knocker_deadwood: 0, defender_deadwood: 0, upcard: upcard }; }
    return {
      end: part.end, ended_by: part.ended_by === null ? null : Number(part.ended_by),
      knocker_deadwood: part.end === "knock" ? Number(part.knocker_deadwood || 0) : 0,
      defender_deadwood: Number(part.defender_deadwood === "" ? -1 : part.defender_deadwood),
      upcard: upcard
    };
  }

  function describe(entries, number) {
    var told = entries.map(function (entry) {
      if (entry.knocker) { return words("entry_cards", { name: state.players[entry.ended_by] }); }
      if (entry.end === "dead") { return words("entry_dead"); }
      var who = entry.ended_by === null ? "?" : state.players[entry.ended_by];
      return words("entry_" + entry.end, { name: who, knocker: entry.knocker_deadwood, defender: entry.defender_deadwood });
    }).join("; ");
    return number ? words("hand_corrected", { number: number, entries: told }) : words("hand_entered", { number: state.hands.length + 1, entries: told });
  }

  // Builds the form for the next hand, for a hand being corrected, or again for a
  // queued change the server refused (with its error shown at the field).
  function buildForm(item, error) {
    enter.innerHTML = "";
    form = null;
    var correcting = item && item.event && item.event.kind === "correct" ? item.event.number : null;
    if (!key || (state.finished && !correcting) || state.next_game) { enter.hidden = true; return; }
    if (queue.length) {
      enter.hidden = false;
      enter.appendChild(el("p", { "class": "notice", text: words("waiting") }));
      return;
    }
    var deal = correcting ? state.hands[correcting - 1].deal.map(function (h) {
      // Three-handed, the player not in the hand dealt it and sat out.
      var out = rules.format === "three_handed" ? [0, 1, 2].filter(function (s) { return h.seats.indexOf(s) < 0; })[0] : null;
      return { seats: h.seats, dealer: h.dealer, out: out };
    }) : state.next_deal.hands.map(function (h) { return { seats: h.seats, dealer: h.dealer, out: state.next_deal.sitting_out }; });
    var given = item && item.event ? item.event.entries : null;
    enter.hidden = false;
    form = { number: correcting, parts: [] };
    enter.appendChild(el("h2", { text: correcting ? words("correct_hand", { number: correcting }) : words("enter_hand", { number: state.hands.length + 1 }) }));
    var who = el("select", { "aria-label": words("who_enters") }, [el("option", { value: "", text: words("who_holds") })]);
    state.players.forEach(function (name) { who.appendChild(el("option", { value: name, text: name })); });
    who.value = load(meName, "");
    who.addEventListener("change", function () { save(meName, who.value); });
    enter.appendChild(el("div", { "class": "who-enters" }, [who]));
    deal.forEach(function (seating, index) {
      var built = handPart(index, seating, given ? given[index] : null);
      form.parts.push(built.part);
      enter.appendChild(built.box);
    });
    var submit = el("button", { type: "button", "class": "button primary big", "data-save": true, text: correcting ? words("save_correction") : words("save_hand", { number: state.hands.length + 1 }) });
    submit.addEventListener("click", function () {
      var entries = form.parts.map(entryJson);
      var event = correcting ? { kind: "correct", number: correcting, entries: entries } : { kind: "hand", entries: entries };
      enqueue({ event: event, label: describe(entries, correcting) });
      buildForm(null);
    });
    enter.appendChild(submit);
    if (correcting) {
      var cancel = el("button", { type: "button", "class": "button big", text: words("cancel") });
      cancel.addEventListener("click", function () { buildForm(null); });
      enter.appendChild(cancel);
    }
    if (error) { showError(error); }
  }

  function showError(error) {
    var field = (error.field || "").replace(/^event\./, "");
    var target = enter.querySelector('[data-field="' + field + '"]');
    var text = error.message.charAt(0).toUpperCase() + error.message.slice(1);
    if (target) {
      target.classList.add("has-error");
      var slot = target.classList.contains("field-error") ? target : target.querySelector(".field-error");
      if (slot) { slot.hidden = false; slot.textContent = text; }
      target.scrollIntoView({ block: "center" });
    } else {
      enter.insertBefore(el("p", { "class": "field-error", role: "alert", text: text }), enter.firstChild.nextSibling);
    }
  }

  // -- buttons in the rendered score (edit, undo, next game), by delegation --------
  document.addEventListener("click", function (event) {
    var target = event.target.closest("button, a");
    if (!target) { return; }
    if (target.dataset.edit) {
      var number = Number(target.dataset.edit);
      buildForm({ event: { kind: "correct", number: number, entries: state.hands[number - 1].entries } });
      enter.scrollIntoView({ block: "start" });
    } else if (target.hasAttribute("data-undo")) {
      if (window.confirm(words("undo_ask", { number: state.hands.length }))) {
        enqueue({ event: { kind: "undo" }, label: words("undo", { number: state.hands.length }) });
      }
    } else if (target.dataset.nextGame) {
      enqueue({ next: target.dataset.nextGame, label: words("next_game") });
    } else if (target.dataset.next) {
      event.preventDefault();
      goTo(target.dataset.next);
    } else if (target.dataset.drop) {
      queue = queue.filter(function (item) { return item.id !== target.dataset.drop; });
      save(queueName, queue); showQueue(); flush();
      if (!queue.length) { buildForm(null); }
    } else if (target.dataset.rebase) {
      queue.forEach(function (item) {
        if (item.id === target.dataset.rebase) { item.conflict = false; item.problem = null; item.seen = state.last_event; item.id = requestKey(); }
      });
      save(queueName, queue); flush();
    } else if (target.dataset.copy) {
      copy(target.dataset.copy === "scorer" ? scorerUrl : target.dataset.url);
    }
  });

  function copy(text) {
    if (!text) { return; }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(function () { say(words("copied"), "ok"); });
    } else {
      window.prompt(words("copy"), text);
    }
  }

  // -- the scoring link and its QR code, for a phone that holds the key ------------
  var scorerUrl = null;
  function scorerLink() {
    if (!key) { return; }
    fetch(root.dataset.scorerLink, { headers: { "X-Scorer-Key": key }, cache: "no-store" })
      .then(function (answer) { return answer.ok ? answer.json() : null; })
      .then(function (data) {
        if (!data) { return; }
        scorerUrl = data.url;
        var figure = document.getElementById("scorer-qr");
        figure.querySelector("img").src = data.qr;
        figure.hidden = false;
        document.getElementById("viewer-qr").classList.add("second");
      })
      .catch(function () { /* offline: the QR code shows when the page is opened online */ });
  }

  window.addEventListener("online", function () { say(words("online"), "ok"); flush(); refresh(); follow(); });
  window.addEventListener("offline", function () { say(words("offline"), "offline"); });
  setInterval(function () { if (queue.length && navigator.onLine) { flush(); } }, 5000);

  if ("serviceWorker" in navigator && window.isSecureContext) {
    navigator.serviceWorker.register(root.dataset.worker, { scope: "/t/" }).catch(function () { /* optional */ });
  }

  showScorerParts();
  buildForm(null);
  showQueue();
  scorerLink();
  follow();
  flush();
  root.classList.add("ready");
}());
