// The web table: shows the state the server sends and turns touches into moves.
// The browser only proposes: the server checks every move. No framework.
// Config: <script type="application/json" id="domino-config">{"ws", "lang", "strings"}.
// A touch on a hand tile selects it (a tile with one legal move carries data-move and sends
// it at once); its targets on the board light up; a target whose touch completes a move
// carries data-move; a target that is one part of a pair (puzzle cells, patience tiles)
// leads to the next part; several moves left, or a move with no target drawn, are offered
// as buttons in #choices.
(function () {
  "use strict";
  var config = JSON.parse(document.getElementById("domino-config").textContent || "{}");
  var S = Object.assign({
    connecting: "Connecting…", connected: "", reconnecting: "Connection lost: reconnecting…",
    cancel: "Cancel", choose: "Choose:", your_turn: "Your turn", hand: "Your hand",
    board: "The table", zoom: "Zoom"
  }, config.strings || {});
  var $ = function (id) { return document.getElementById(id); };
  var state = null, version = -1, selected = null, parts = [], pending = false;
  var socket = null, retry = 500;

  if (window.Telegram && window.Telegram.WebApp) {  // Telegram's theme as CSS variables
    var tp = window.Telegram.WebApp.themeParams || {}, root = document.documentElement.style;
    Object.keys(tp).forEach(function (k) { root.setProperty("--tg-" + k.replace(/_/g, "-"), tp[k]); });
    document.documentElement.classList.add("tg");
    if (window.Telegram.WebApp.ready) { window.Telegram.WebApp.ready(); }
  }

  function wsUrl(path) {
    if (/^wss?:/.test(path)) { return path; }
    return (location.protocol === "https:" ? "wss://" : "ws://") + location.host + path;
  }

  function connect() {
    $("conn").textContent = version < 0 ? S.connecting : S.reconnecting;
    socket = new WebSocket(wsUrl(config.ws || "/ws"));
    socket.onopen = function () {
      retry = 500;
      $("conn").textContent = S.connected;
      socket.send(JSON.stringify({type: "hello", version: version}));
    };
    socket.onmessage = function (ev) {
      var msg;
      try { msg = JSON.parse(ev.data); } catch (e) { return; }
      if (msg.type === "state") {
        if (typeof msg.version === "number" && msg.version < version) { return; }
        version = typeof msg.version === "number" ? msg.version : version;
        if (msg.title) { $("title").textContent = msg.title; document.title = msg.title; }
        show(msg.state);
      } else if (msg.type === "review") {
        $("review").disabled = false;
        say("");
        $("review-text").textContent = msg.text || "";
        $("review-text").hidden = !msg.text;
      } else if (msg.type === "error") {
        $("review").disabled = false;
        pending = false;
        say(msg.text || "");
        update();
      }
    };
    socket.onclose = function () {
      socket = null;
      $("conn").textContent = S.reconnecting;
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 8000);
    };
  }

  function say(text) {
    var m = $("message");
    m.textContent = text;
    m.hidden = !text;
  }

  function send(move) {
    if (!socket || socket.readyState !== 1 || pending) { return; }
    pending = true;
    document.body.classList.add("pending");
    socket.send(JSON.stringify({type: "move", move: move, version: version}));
    selected = null;
    parts = [];
    update();
  }

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text) { e.textContent = text; }
    return e;
  }

  function show(st) {
    state = st;
    window.dominoState = st;  // for tests and tools: the payload shown, and its version
    window.dominoVersion = version;
    pending = false;
    document.body.classList.remove("pending");
    say("");
    var known = (st.moves || []).some(function (m) { return m.tile === selected; });
    if (!known) { selected = null; parts = []; }
    $("board").innerHTML = st.board_svg || "";
    var svg = $("board").querySelector("svg");
    if (svg) { svg.setAttribute("aria-label", S.board); }
    // boards of many small places (cells, the stack's numbers) offer to zoom: the board
    // then scrolls inside its frame, never the page
    var wide = svg && ["board-grid", "board-puzzle", "board-stack", "board-memory"].some(
      function (c) { return svg.classList.contains(c); });
    $("zoom").hidden = !wide;
    $("zoom").textContent = S.zoom;
    // a player's page, once the game is over, offers the review (their seat only)
    $("review").hidden = !(st.over && st.seat !== null && st.seat !== undefined);
    $("review").textContent = S.review || "";
    var lines = $("lines");
    lines.textContent = "";
    (st.lines || []).forEach(function (line) { lines.appendChild(el("li", {}, line)); });
    var hand = $("hand");
    hand.textContent = "";
    hand.setAttribute("aria-label", S.hand);
    (st.hand || []).forEach(function (h) {
      var b = el("button", {"class": "hand-tile", type: "button", "data-tile": h.tile,
        "aria-label": h.label});
      if (!h.playable) { b.classList.add("dim"); }
      b.innerHTML = h.svg || "";
      if (!h.svg) { b.textContent = h.label; }
      hand.appendChild(b);
    });
    var buttons = $("buttons");
    buttons.textContent = "";
    (st.buttons || []).forEach(function (m) {
      buttons.appendChild(el("button", {type: "button", "class": "move", "data-move": m.move}, m.label));
    });
    document.body.classList.toggle("my-turn", (st.moves || []).length + (st.buttons || []).length > 0);
    update();
  }

  function movesOf(tile) {
    return (state && state.moves || []).filter(function (m) { return m.tile === tile; });
  }

  function startsWith(target, prefix) {
    var t = target.split(" ");
    for (var i = 0; i < prefix.length; i++) { if (t[i] !== prefix[i]) { return false; } }
    return true;
  }

  // Light the targets of the current selection, set data-move where a touch completes a
  // move, list the rest as choices.
  function update() {
    var board = $("board");
    board.querySelectorAll(".target").forEach(function (t) {
      t.classList.toggle("chosen", parts.indexOf(t.getAttribute("data-target")) >= 0);
      t.classList.remove("lit");
      t.removeAttribute("data-move");
      t.removeAttribute("tabindex");
      t.removeAttribute("role");
    });
    $("hand").querySelectorAll(".hand-tile").forEach(function (b) {
      var mine = movesOf(b.getAttribute("data-tile"));
      b.setAttribute("aria-pressed", String(b.getAttribute("data-tile") === selected));
      if (mine.length === 1 && !pending) { b.setAttribute("data-move", mine[0].move); }
      else { b.removeAttribute("data-move"); }
    });
    var choices = [], through = {};
    if (state && !pending) {
      movesOf(selected).forEach(function (m) {
        var target = m.target || "";
        if (!target || !startsWith(target, parts)) {
          if (!target && selected !== null && parts.length === 0) { choices.push(m); }
          return;
        }
        var rest = target.split(" ").slice(parts.length);
        if (!rest.length) { choices.push(m); return; }
        var node = board.querySelector('.target[data-target="' + cssq(rest[0]) + '"]');
        if (!node) { choices.push(m); return; }
        var key = rest[0];
        through[key] = through[key] || {node: node, done: [], more: 0};
        if (rest.length === 1) { through[key].done.push(m.move); } else { through[key].more++; }
      });
    }
    Object.keys(through).forEach(function (key) {
      var t = through[key], unique = uniq(t.done);
      t.node.classList.add("lit");
      t.node.setAttribute("tabindex", "0");
      t.node.setAttribute("role", "button");
      if (unique.length === 1 && !t.more) { t.node.setAttribute("data-move", unique[0]); }
    });
    var box = $("choices");
    box.textContent = "";
    var seen = {};
    choices = choices.filter(function (m) { return seen[m.move] ? false : (seen[m.move] = true); });
    if (choices.length || selected !== null || parts.length) {
      if (choices.length) { box.appendChild(el("span", {"class": "choose"}, S.choose)); }
      choices.forEach(function (m) {
        box.appendChild(el("button", {type: "button", "class": "move", "data-move": m.move}, m.label));
      });
      box.appendChild(el("button", {type: "button", "class": "cancel", "data-cancel": "1"}, S.cancel));
    }
    box.hidden = !box.childNodes.length;
  }

  function uniq(list) {
    return list.filter(function (x, i) { return list.indexOf(x) === i; });
  }

  function cssq(s) { return String(s).replace(/["\\]/g, "\\$&"); }

  function touch(node) {
    if (pending || !state) { return; }
    var move = node.getAttribute("data-move");
    if (node.hasAttribute("data-cancel")) { selected = null; parts = []; update(); return; }
    if (node.classList.contains("hand-tile")) {
      if (move) { send(move); return; }
      var tile = node.getAttribute("data-tile");
      selected = selected === tile ? null : tile;
      parts = [];
      update();
      return;
    }
    if (move) { send(move); return; }
    var target = node.getAttribute("data-target");
    if (target !== null && node.classList.contains("lit")) {
      parts.push(target);
      update();
    }
  }

  $("zoom").addEventListener("click", function () {
    var on = $("board").classList.toggle("zoomed");
    $("zoom").setAttribute("aria-pressed", String(on));
  });
  document.addEventListener("click", function (ev) {
    var node = ev.target.closest("[data-move], .hand-tile, .target.lit, [data-cancel]");
    if (node) { ev.preventDefault(); touch(node); }
  });
  document.addEventListener("keydown", function (ev) {
    if (ev.key === "Escape") { selected = null; parts = []; update(); return; }
    if ((ev.key === "Enter" || ev.key === " ") && ev.target.classList &&
        ev.target.classList.contains("target")) {
      ev.preventDefault();
      touch(ev.target);
    }
  });
  $("review").addEventListener("click", function () {
    if (!socket || socket.readyState !== 1) { return; }
    $("review").disabled = true;
    say(S.reviewing || "");
    socket.send(JSON.stringify({type: "review"}));
  });
  connect();
}());
