// A game against the bot: a thin view of what the person's seat sees. The server
// deals, plays the bots and keeps the score; this page draws the state it sends
// (embedded in the page, then each move's answer), offers the legal moves as
// buttons and card taps, and sends each move with the count of moves it has seen,
// so a second tap of the same move is refused (409) instead of played twice.
// Every word shown comes from the server, in the page's language: the state's texts,
// and the page's words (#bot-words), whose {placeholders} this script fills.
(function () {
  "use strict";
  var root = document.getElementById("botgame");
  if (!root) { return; }
  var state = JSON.parse(document.getElementById("bot-state").textContent);
  var key = root.dataset.key || "";
  var busy = false;
  var knocking = false;
  var dismissed = null;
  var before = null;  // the hand before a draw, to show the card drawn
  var SUITS = {C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660"};
  var WORDS = JSON.parse(document.getElementById("bot-words").textContent);
  // What a card shows for each rank, in the page's language (B D K in German).
  var FACES = JSON.parse(document.getElementById("card-faces").textContent);

  // A sentence of the page's words with its {placeholders} filled.
  function words(key, values) {
    return WORDS[key].replace(/\{(\w+)\}/g, function (whole, name) {
      return values && values[name] !== undefined ? String(values[name]) : whole;
    });
  }

  function byId(id) { return document.getElementById(id); }

  function text(id, value) { byId(id).textContent = value; }

  function lines(list, items) {
    list.replaceChildren();
    items.forEach(function (line) {
      var li = document.createElement("li");
      li.textContent = line;
      list.appendChild(li);
    });
  }

  function face(code) {
    var rank = code.slice(0, -1);
    var suit = code.slice(-1);
    return {rank: FACES[rank] || rank, suit: SUITS[suit], red: suit === "D" || suit === "H"};
  }

  // A card: a button when tapping it plays a move, otherwise a picture.
  function card(code, label, onTap) {
    var shown = face(code);
    var element = document.createElement(onTap ? "button" : "span");
    element.className = "playing-card" + (shown.red ? " red" : "");
    element.dataset.card = code;
    if (onTap) {
      element.type = "button";
      element.addEventListener("click", onTap);
      element.setAttribute("aria-label", label);
    } else {
      element.setAttribute("role", "img");
      element.setAttribute("aria-label", shown.rank + shown.suit);
    }
    var rank = document.createElement("span");
    rank.className = "rank";
    rank.textContent = shown.rank;
    var suit = document.createElement("span");
    suit.className = "suit";
    suit.textContent = shown.suit;
    element.appendChild(rank);
    element.appendChild(suit);
    return element;
  }

  function group(className) {
    var div = document.createElement("div");
    div.className = "bot-group " + className;
    return div;
  }

  // Several games at once (Hollywood): one compact row a game under the players' names.
  function drawGames(box) {
    var table = document.createElement("table");
    table.className = "bot-games";
    var head = table.createTHead().insertRow();
    head.appendChild(document.createElement("th"));
    state.score.sides.forEach(function (name) {
      var th = document.createElement("th");
      th.scope = "col";
      th.textContent = name;
      head.appendChild(th);
    });
    var body = table.createTBody();
    state.score.games.forEach(function (game, number) {
      var row = body.insertRow();
      var th = document.createElement("th");
      th.scope = "row";
      th.textContent = words("game", {number: number + 1});
      row.appendChild(th);
      game.points.forEach(function (points, side) {
        var cell = row.insertCell();
        cell.textContent = points;
        if (game.winner === side) { cell.className = "winner"; }
      });
    });
    box.appendChild(table);
  }

  function drawScore() {
    var box = byId("bot-score");
    box.replaceChildren();
    text("bot-score-line", state.score.line);
    if (state.score.games.length > 1) {
      drawGames(box);
      return;
    }
    state.score.games.forEach(function (game) {
      var row = document.createElement("div");
      row.className = "bot-sides";
      game.points.forEach(function (points, side) {
        var cell = document.createElement("div");
        cell.className = "bot-side" + (game.winner === side ? " winner" : "");
        var who = document.createElement("span");
        who.className = "who";
        who.textContent = state.score.sides[side];
        var number = document.createElement("span");
        number.className = "points";
        number.textContent = points;
        cell.appendChild(who);
        cell.appendChild(number);
        row.appendChild(cell);
      });
      box.appendChild(row);
    });
  }

  function drawHand(hand, moves) {
    var discards = {};
    var knocks = {};
    moves.forEach(function (move) {
      if (move.kind === "discard") { discards[move.card] = move; }
      if (move.kind === "knock" || move.kind === "gin") { knocks[move.card] = knocks[move.card] || move; }
    });
    var box = byId("bot-hand");
    var held = hand.melds.reduce(function (all, meld) { return all.concat(meld); }, []).concat(hand.deadwood_cards);
    var drawn = null;
    if (hand.phase === "discard" && !hand.taken && before && before.length === held.length - 1) {
      var added = held.filter(function (code) { return before.indexOf(code) < 0; });
      drawn = added.length === 1 ? added[0] : null;
    }
    before = hand.phase === "discard" ? before : held;
    box.replaceChildren();
    var mayKnock = key && hand.phase === "discard";
    function place(code, target) {
      var tap = null;
      var label = "";
      if (key && knocking && mayKnock && code !== hand.taken) {
        label = knocks[code] ? knocks[code].label : words("knock_with", {card: face(code).rank + face(code).suit});
        tap = function () { send({action: "knock", card: code}); };
      } else if (key && !knocking && discards[code]) {
        label = discards[code].label;
        tap = function () { send(discards[code].action); };
      }
      var element = card(code, label, tap);
      if (code === hand.taken) {
        element.classList.add("taken");
        element.title = words("taken");
      }
      if (knocking && knocks[code]) { element.classList.add("can-knock"); }
      if (drawn === code) { element.classList.add("drawn"); }
      target.appendChild(element);
    }
    hand.melds.forEach(function (meld) {
      var div = group("meld");
      meld.forEach(function (code) { place(code, div); });
      box.appendChild(div);
    });
    if (hand.deadwood_cards.length) {
      var loose = group("deadwood");
      hand.deadwood_cards.forEach(function (code) { place(code, loose); });
      box.appendChild(loose);
    }
  }

  function button(label, className, onTap) {
    var element = document.createElement("button");
    element.type = "button";
    element.className = "button bot-big " + className;
    element.textContent = label;
    element.disabled = !key;
    element.addEventListener("click", onTap);
    return element;
  }

  function drawMoves(hand, moves) {
    var box = byId("bot-moves");
    box.replaceChildren();
    if (hand.phase === "discard") {
      var toggle = button(words(knocking ? "knock_cancel" : "knock"), "bot-knock-toggle", function () {
        knocking = !knocking;
        render();
      });
      toggle.setAttribute("aria-pressed", knocking ? "true" : "false");
      box.appendChild(toggle);
      if (knocking) {
        var hint = document.createElement("p");
        hint.className = "bot-hint";
        hint.textContent = words("knock_hint");
        box.appendChild(hint);
      }
    }
    moves.forEach(function (move) {
      if (move.kind === "discard") { return; }  // a tap on the card
      var primary = move.kind === "draw" || move.kind === "defend" || move.kind === "gin" ||
        move.kind === "big_gin" || (move.kind === "knock" && move.left === 0);
      var element = button(move.label, "bot-move" + (primary ? " primary" : ""), function () {
        send(move.action);
      });
      element.dataset.kind = move.kind;
      box.appendChild(element);
    });
  }

  function drawTable(hand, moves) {
    text("bot-hand-title", state.this_hand[0] || "");
    text("bot-hand-notes", state.this_hand[1] || "");
    text("bot-stock", hand.stock_words);
    text("bot-dead-at", hand.dead_at_words);
    var pile = byId("bot-pile");
    pile.replaceChildren();
    if (hand.pile_top) { pile.appendChild(card(hand.pile_top, "", null)); }
    text("bot-pile-size", hand.pile_size);
    text("bot-limit", hand.knock_limit);
    byId("bot-limit").title = hand.knock_limit_text;
    text("bot-opponent", hand.opponent_holds);
    var known = byId("bot-known");
    known.replaceChildren();
    hand.opponent_known.forEach(function (code) { known.appendChild(card(code, "", null)); });
    byId("bot-known-part").hidden = hand.opponent_known.length === 0;
    var knocked = byId("bot-knocked");
    knocked.hidden = !hand.knock;
    if (hand.knock) {
      text("bot-knock-text", hand.knock.text);
      text("bot-knock-preview", hand.knock.preview);
      var cards = byId("bot-knock-cards");
      cards.replaceChildren();
      hand.knock.melds.forEach(function (meld) {
        var div = group("meld");
        meld.forEach(function (code) { div.appendChild(card(code, "", null)); });
        cards.appendChild(div);
      });
      if (hand.knock.deadwood_cards.length) {
        var loose = group("deadwood");
        hand.knock.deadwood_cards.forEach(function (code) { loose.appendChild(card(code, "", null)); });
        cards.appendChild(loose);
      }
    }
    text("bot-deadwood", hand.deadwood);
    drawHand(hand, moves);
    drawMoves(hand, moves);
  }

  function render() {
    drawScore();
    var hand = state.hand;
    var last = state.last_round;
    var showLast = !!last && (state.over || (last.new && dismissed !== last.number));
    byId("bot-last").hidden = !showLast;
    if (last) {
      text("bot-last-number", last.number);
      lines(byId("bot-last-lines"), last.lines);
    }
    byId("bot-continue").hidden = state.over;
    byId("bot-over").hidden = !state.over;
    if (state.over) {
      text("bot-over-title", state.results[0]);
      lines(byId("bot-results"), state.results.slice(1));
      text("bot-seed", state.seed);
    }
    var playing = !!hand && !showLast;
    byId("bot-table").hidden = !playing;
    text("bot-prompt", playing ? hand.prompt : "");
    text("bot-latest", playing ? state.latest.join(" · ") : "");
    if (hand) { drawTable(hand, state.moves); }
    lines(byId("bot-log"), state.this_hand.slice(2));
    byId("bot-log-box").hidden = !playing;
    root.setAttribute("aria-busy", busy ? "true" : "false");
    root.dataset.seen = state.seen;
    root.dataset.phase = playing ? hand.phase : "";
  }

  function refuse(message) {
    var box = byId("bot-refusal");
    box.textContent = message || "";
    box.hidden = !message;
  }

  function send(action) {
    if (busy || !key) { return; }
    busy = true;
    root.querySelectorAll("#bot-table button").forEach(function (element) { element.disabled = true; });
    root.setAttribute("aria-busy", "true");
    fetch(root.dataset.act, {
      method: "POST",
      headers: {"Content-Type": "application/json", "Accept": "application/json", "X-Player-Key": key},
      body: JSON.stringify({seen: state.seen, action: action}),
      credentials: "same-origin"
    }).then(function (response) {
      return response.json().then(function (data) { return {status: response.status, data: data}; });
    }).then(function (answer) {
      busy = false;
      if (answer.status === 201) {
        state = answer.data;
        knocking = false;
        refuse("");
      } else if (answer.status === 409 && answer.data.game) {
        state = answer.data.game;
        knocking = false;
        refuse(words("stale"));
      } else {
        var errors = answer.data.errors || [];
        refuse(errors.length ? errors[0].message : answer.data.error);
      }
      render();
    }).catch(function () {
      busy = false;
      refuse(words("broken"));
      render();
    });
  }

  byId("bot-continue").addEventListener("click", function () {
    dismissed = state.last_round ? state.last_round.number : null;
    render();
    var title = byId("bot-hand-title");
    title.setAttribute("tabindex", "-1");
    title.focus();
  });

  render();
}());
