// The web table: shows the state the server sends and turns touches into moves.
// The browser only proposes: the server checks every move. No framework, no build step.
// Config: <script type="application/json" id="domino-config">{"ws", "lang", "strings"}.
// The contract: docs/web.md and docs/web-page.md. table-parts.js draws the player panels,
// the move log, the result panel and the action buttons; table-feel.js the drag, the
// sounds, the haptics and the animations (both loaded before this script).
// A touch on a hand tile selects it (a tile with one legal move carries data-move and sends
// it at once); its targets on the board light up; a target whose touch completes a move
// carries data-move; a target that is one part of a pair (puzzle cells, patience tiles)
// leads to the next part; several moves left, or a move with no target drawn, are offered
// as buttons in #choices. Nothing is lit nor sent unless the seat is the one to move.
(function () {
  "use strict";
  var config = JSON.parse(document.getElementById("domino-config").textContent || "{}");
  var S = Object.assign({
    connecting: "Connecting…", connected: "", reconnecting: "Connection lost: reconnecting…",
    cancel: "Cancel", choose: "Choose:", your_turn: "Your turn", hand: "Your hand",
    board: "The table", zoom: "Zoom", flip: "Turn the tile round",
    place_first: "Pick the cell of {a}, then the cell of {b}"
  }, config.strings || {});
  var P = window.DominoParts, F = window.DominoFeel;
  window.dominoStrings = S;
  var $ = function (id) { return document.getElementById(id); };
  var state = null, version = -1, table = null;
  var selected = null, parts = [], flipped = false, pending = false;
  var socket = null, retry = 500, keyboard = false;  // the last touch was a key's

  if (window.Telegram && window.Telegram.WebApp) {  // Telegram's theme as CSS variables
    var tp = window.Telegram.WebApp.themeParams || {}, root = document.documentElement.style;
    Object.keys(tp).forEach(function (k) { root.setProperty("--tg-" + k.replace(/_/g, "-"), tp[k]); });
    document.documentElement.classList.add("tg");
    if (window.Telegram.WebApp.colorScheme === "dark") {
      document.documentElement.classList.add("tg-dark");
    }
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
        performance.mark("domino:state");  // a state received (the page's own time follows)
        version = typeof msg.version === "number" ? msg.version : version;
        if (msg.table !== undefined) { table = msg.table; }
        if (msg.title) { $("title").textContent = msg.title; document.title = msg.title; }
        show(withLog(msg.state || {}));
      } else if (msg.type === "review") {
        P.answered();
        say("");
        $("review-text").textContent = msg.text || "";
        $("review-text").hidden = !msg.text;
      } else if (msg.type === "hint") {
        P.answered();
        P.hint(msg.text || "");
      } else if (msg.type === "goto" && typeof msg.url === "string" && /^\/(?![\/\\])/.test(msg.url)) {
        location.assign(msg.url);
      } else if (msg.type === "error") {
        // a refused move or action: never leave the page faded nor its buttons disabled
        P.answered();
        setPending(false);
        say(msg.text || "");
        F.refused();
        update();
      }
    };
    socket.onclose = function (ev) {
      socket = null;
      setPending(false);
      P.answered();
      // the link expired (4401) or too many pages hold it (4429): the server said why in an
      // error just before; knocking again would not help
      if (ev && (ev.code === 4401 || ev.code === 4429)) { $("conn").textContent = ""; return; }
      $("conn").textContent = S.reconnecting;
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 8000);
    };
  }

  // The log comes by parts (docs/web-page.md): with `log_from` n > 0, the entries after n
  // only, put on top of those the page has; else the whole log. A part that does not
  // follow what the page has (a state missed) asks the server for the whole state again.
  function withLog(st) {
    if (!Array.isArray(st.log) || typeof st.log_from !== "number" || st.log_from <= 0) {
      return st;
    }
    var had = state && Array.isArray(state.log) ? state.log : [];
    if ((had.length ? had[0].n : 0) !== st.log_from) {
      st.log = had;
      if (open()) { socket.send(JSON.stringify({type: "hello", version: version})); }
      return st;
    }
    st.log = st.log.length ? st.log.concat(had) : had;
    return st;
  }

  function say(text) {
    var m = $("message");
    m.textContent = text;
    m.hidden = !text;
  }

  function setPending(on) {
    pending = on;
    document.body.classList.toggle("pending", on);
  }

  function open() { return socket && socket.readyState === 1; }

  // Send a message to the server (an action: hint, give-up, rematch, review).
  function post(message) {
    if (!open()) { return false; }
    if (message.type === "action" && message.action !== "rematch") { message.version = version; }
    socket.send(JSON.stringify(message));
    return true;
  }

  function mine() {
    return !!state && state.seat !== null && state.seat !== undefined && !state.spectator &&
      state.to_move === state.seat && !state.over;
  }

  function send(move, from) {
    if (!open() || pending || !mine()) { return; }
    performance.mark("domino:touch");
    F.sent(from || document.querySelector('#hand [data-tile="' + cssq(selected) + '"]'));
    setPending(true);
    P.closeResult();
    P.hint("");
    socket.send(JSON.stringify({type: "move", move: move, version: version}));
    selected = null;
    parts = [];
    flipped = false;
    update();
  }

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text) { e.textContent = text; }
    return e;
  }

  function placeOf(st) {
    return (st && st.place && mine()) ? st.place : null;
  }

  function show(st) {
    var before = state;
    state = st;
    window.dominoState = st;  // for tests and tools: the payload shown, and its version
    window.dominoVersion = version;
    setPending(false);
    say("");
    var place = placeOf(st);
    var known = movesOf(selected).length > 0 ||
      (place && (place.tiles || []).indexOf(selected) >= 0);
    if (!known) { selected = null; parts = []; flipped = false; }
    // the keyboard's place survives the new state: the same tile, else the first one to play
    var had = document.activeElement, keep = keyboard && had && had.closest &&
      had.closest("#hand, #board, #buttons, #choices") ? had.getAttribute("data-tile") || "" : null;
    var board = $("board");
    var old = F.keep(board);
    P.patch(board, st.board_svg || "");  // what changed only
    var svg = board.querySelector("svg");
    if (svg) { svg.setAttribute("aria-label", st.alt || S.board); }
    board.classList.toggle("has-board", !!svg);
    board.setAttribute("aria-label", S.board);
    // boards of many small places (cells, the stack's numbers) offer to zoom: the board
    // then scrolls inside its frame, never the page
    var wide = svg && ["board-grid", "board-puzzle", "board-stack", "board-memory"].some(
      function (c) { return svg.classList.contains(c); });
    $("zoom").hidden = !wide;
    $("zoom").textContent = S.zoom;
    document.body.setAttribute("data-family", st.family || (svg ? svg.getAttribute("class")
      .replace(/.*board-/, "") : ""));
    document.body.classList.toggle("spectator", !!st.spectator ||
      st.seat === null || st.seat === undefined);
    $("spectator").hidden = !(st.spectator || st.seat === null || st.seat === undefined);
    $("spectator").textContent = S.spectator || "You are watching";
    var lines = $("lines");
    lines.textContent = "";
    (st.lines || []).forEach(function (line) { lines.appendChild(el("li", {}, line)); });
    var hand = $("hand");
    hand.textContent = "";
    hand.setAttribute("aria-label", S.hand);
    var canPlace = place ? place.tiles || [] : [];
    (st.hand || []).forEach(function (h) {
      var b = el("button", {"class": "hand-tile", type: "button", "data-tile": h.tile,
        "aria-label": h.label || h.tile});
      var live = mine() && (h.playable || canPlace.indexOf(h.tile) >= 0);
      if (!live) { b.classList.add("dim"); }
      b.innerHTML = h.svg || "";
      if (!h.svg) { b.textContent = h.label; }
      var inner = b.querySelector("svg");
      if (inner) { inner.setAttribute("aria-hidden", "true"); }
      hand.appendChild(b);
    });
    var buttons = $("buttons");
    buttons.textContent = "";
    var words = mine() ? st.buttons || [] : [];
    // many buttons of one kind (a 42's bids): their shared first words said once, each
    // button the rest ("Bid" then 30, 31...), a compact grid that leaves the hand on screen
    var many = words.length > 6, head = many ? sharedHead(words) : "";
    if (head) { buttons.appendChild(el("span", {"class": "many-head"}, head)); }
    words.forEach(function (m) {
      var short = head && m.label.indexOf(head + " ") === 0 ? m.label.slice(head.length + 1) : "";
      var b = el("button", {type: "button", "class": "move", "data-move": m.move}, short || m.label);
      if (short) { b.setAttribute("aria-label", m.label); }
      buttons.appendChild(b);
    });
    buttons.classList.toggle("many", many);
    document.body.classList.toggle("my-turn", mine() &&
      ((st.moves || []).length + words.length > 0 || !!place));
    P.render(st, {table: table, version: version, mine: mine(), post: post, strings: S});
    update();
    if (keep !== null && !document.body.classList.contains("showing-result") &&
        !$("main").contains(document.activeElement)) {
      var back = (keep && hand.querySelector('[data-tile="' + cssq(keep) + '"]')) ||
        document.querySelector("#hand .hand-tile:not(.dim), #buttons button, #hand .hand-tile");
      if (back) { back.focus({preventScroll: true}); }
    }
    // the frame that shows this state (marked first: the animations' work comes after)
    requestAnimationFrame(function () { performance.mark("domino:shown"); });
    F.shown(before, st, board, old);
  }

  // the first words most of the buttons share ("Bid"), or ""
  function sharedHead(words) {
    var count = {};
    words.forEach(function (m) {
      var sp = m.label.lastIndexOf(" ");
      var w = m.label.split(" ")[0];
      if (sp > 0) { count[w] = (count[w] || 0) + 1; }
    });
    var best = Object.keys(count).sort(function (a, b) { return count[b] - count[a]; })[0];
    return best && count[best] > words.length / 2 ? best : "";
  }

  function movesOf(tile) {
    if (!mine()) { return []; }
    return (state.moves || []).filter(function (m) { return m.tile === tile; });
  }

  function startsWith(target, prefix) {
    var t = target.split(" ");
    for (var i = 0; i < prefix.length; i++) { if (t[i] !== prefix[i]) { return false; } }
    return true;
  }

  // A puzzle's free placement (state.place): every free cell, then the first cell's free
  // neighbours; the tile's first number goes on the first cell picked (unless flipped).
  function placeTargets(place, through) {
    var board = $("board"), pairs = place.pairs || {};
    var cells = parts.length ? pairs[parts[0]] || [] : (place.free || []).filter(
      function (c) { return (pairs[c] || []).length > 0; });
    cells.forEach(function (cell) {
      var node = board.querySelector('.target[data-target="' + cssq(cell) + '"]');
      if (!node) { return; }
      var t = through[cell] = {node: node, done: [], more: 0};
      if (parts.length) {
        t.done.push(flipped ? selected + " " + cell + " " + parts[0]
                            : selected + " " + parts[0] + " " + cell);
      } else if ((pairs[cell] || []).length === 1) {  // one way to finish: one touch
        var other = pairs[cell][0];
        t.done.push(flipped ? selected + " " + other + " " + cell
                            : selected + " " + cell + " " + other);
      } else { t.more = 1; }
    });
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
      var tile = b.getAttribute("data-tile"), mineOf = movesOf(tile);
      b.setAttribute("aria-pressed", String(tile === selected));
      b.classList.toggle("flipped", tile === selected && flipped);
      if (mineOf.length === 1 && !pending && !placeOf(state)) {
        b.setAttribute("data-move", mineOf[0].move);
      } else { b.removeAttribute("data-move"); }
    });
    var choices = [], through = {}, place = placeOf(state);
    var placing = place && selected !== null && (place.tiles || []).indexOf(selected) >= 0;
    if (state && !pending && placing) { placeTargets(place, through); }
    if (state && !pending) {
      // the listed moves too (a puzzle's placements beyond `place`: a star's corner pairs)
      movesOf(selected).forEach(function (m) {
        if (placing && m.target) {
          var w = m.move.split(" ");
          if (flipped && w.length === 3) { m = {move: w[0] + " " + w[2] + " " + w[1], target: m.target}; }
        }
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
    var lit = Object.keys(through);
    lit.forEach(function (key) {
      var t = through[key], unique = uniq(t.done);
      t.node.classList.add("lit");
      t.node.setAttribute("tabindex", "0");
      t.node.setAttribute("role", "button");
      if (unique.length === 1 && !t.more) { t.node.setAttribute("data-move", unique[0]); }
    });
    // the board is a picture with its words, or a group of buttons while targets are lit
    var svg = board.querySelector("svg");
    if (svg) { svg.setAttribute("role", lit.length ? "group" : "img"); }
    var box = $("choices");
    box.textContent = "";
    var seen = {};
    choices = choices.filter(function (m) { return seen[m.move] ? false : (seen[m.move] = true); });
    if (choices.length || selected !== null || parts.length) {
      if (choices.length) { box.appendChild(el("span", {"class": "choose"}, S.choose)); }
      choices.forEach(function (m) {
        box.appendChild(el("button", {type: "button", "class": "move", "data-move": m.move}, m.label));
      });
      if (placing) {
        var ab = selected.split("-"), first = flipped ? ab[1] : ab[0];
        var second = flipped ? ab[0] : ab[1];
        box.appendChild(el("span", {"class": "choose"},
          S.place_first.replace("{a}", first).replace("{b}", second)));
        box.appendChild(el("button", {type: "button", "class": "flip", "data-flip": "1",
          "aria-pressed": String(flipped)}, S.flip));
      }
      box.appendChild(el("button", {type: "button", "class": "cancel", "data-cancel": "1"}, S.cancel));
    }
    box.hidden = !box.childNodes.length;
    return lit.length;
  }

  function uniq(list) {
    return list.filter(function (x, i) { return list.indexOf(x) === i; });
  }

  function cssq(s) { return String(s).replace(/["\\]/g, "\\$&"); }

  function cancel() {
    selected = null;
    parts = [];
    flipped = false;
    update();
  }

  // One touch (or Enter/Space) on `node`; `keyboard`: focus the first lit target after
  function touch(node, keyboard) {
    if (pending || !state) { return; }
    var move = node.getAttribute("data-move");
    if (node.hasAttribute("data-cancel")) { cancel(); return; }
    if (node.hasAttribute("data-flip")) { flipped = !flipped; update(); return; }
    if (!mine()) { return; }
    if (node.classList.contains("hand-tile")) {
      if (move) { send(move, node); return; }
      var tile = node.getAttribute("data-tile");
      selected = selected === tile ? null : tile;
      parts = [];
      flipped = false;
      F.picked();
      var n = update();
      if (keyboard && n) { focusFirstTarget(); }
      return;
    }
    if (move) { send(move); return; }
    var target = node.getAttribute("data-target");
    if (target !== null && node.classList.contains("lit")) {
      parts.push(target);
      if (update() && keyboard) { focusFirstTarget(); }
    }
  }

  function focusFirstTarget() {
    var t = $("board").querySelector(".target.lit:not(.chosen)");
    if (t && t.focus) { t.focus(); }
  }

  // for table-feel.js's drag: select a tile, and drop it on an element (a lit target, or
  // the board itself for a tile whose one move has no target: a trick's tile)
  window.DominoTable = {
    mine: mine,
    pick: function (tile) {
      if (pending || !mine() || selected === tile) { return; }
      selected = tile; parts = []; flipped = false;
      F.picked();
      update();
    },
    drop: function (node, tile) {
      if (pending || !mine() || selected !== tile) { return false; }
      var target = node && node.closest ? node.closest("#board .target.lit") : null;
      if (target) { touch(target, false); return true; }
      var own = movesOf(tile);
      if (node && node.closest && node.closest("#board") && own.length === 1 && !own[0].target) {
        send(own[0].move);
        return true;
      }
      return false;
    }
  };

  $("zoom").addEventListener("click", function () {
    var on = $("board").classList.toggle("zoomed");
    $("zoom").setAttribute("aria-pressed", String(on));
  });
  document.addEventListener("click", function (ev) {
    if (F.dragged()) { ev.preventDefault(); return; }
    var node = ev.target.closest("[data-move], .hand-tile, .target.lit, [data-cancel], [data-flip]");
    if (node && !node.closest("[data-result]")) {
      ev.preventDefault();
      touch(node, ev.detail === 0);
    }
  });
  document.addEventListener("pointerdown", function () { keyboard = false; }, true);
  document.addEventListener("keydown", function (ev) {
    keyboard = true;
    if (ev.key === "Escape") {
      if (P.escape()) { return; }
      cancel();
      var b = selected === null && document.querySelector("#hand .hand-tile:not(.dim)");
      if (b && document.activeElement && document.activeElement.closest &&
          document.activeElement.closest("#board")) { b.focus(); }
      return;
    }
    // arrows: the next tile of the hand, or the next lit target of the board
    var step = {ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1}[ev.key];
    var among = step && ev.target.closest && (ev.target.closest("#hand") ? "#hand .hand-tile"
      : ev.target.closest("#board") ? "#board .target.lit" : null);
    if (among) {
      var all = Array.prototype.slice.call(document.querySelectorAll(among));
      var next = all[(all.indexOf(ev.target) + step + all.length) % all.length];
      if (next) { ev.preventDefault(); next.focus(); }
      return;
    }
    if ((ev.key === "Enter" || ev.key === " ") && ev.target.classList &&
        ev.target.classList.contains("target")) {
      ev.preventDefault();
      touch(ev.target, true);
    }
  });
  connect();
}());
