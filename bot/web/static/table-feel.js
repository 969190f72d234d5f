// The web table's feel: a tile dragged to its place (pointer events: mouse, touch, pen),
// tiles that move where they go (a short slide of a new tile, a trick swept to its taker),
// tiny WebAudio clicks (off by default, the choice kept in localStorage) and Telegram's
// haptic feedback inside the Mini App. Animations start after the new board is drawn and
// usable (never delaying a touch), and none under prefers-reduced-motion.
(function () {
  "use strict";
  var $ = function (id) { return document.getElementById(id); };
  var still = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)");
  var from = null, audio = null, sound = false, justDragged = false, drag = null;

  function calm() { return !!(still && still.matches) || !Element.prototype.animate; }

  function haptic(kind, what) {
    var tg = window.Telegram && window.Telegram.WebApp;
    var h = tg && tg.HapticFeedback;
    try {
      if (!h) { return; }
      if (kind === "impact" && h.impactOccurred) { h.impactOccurred(what); }
      if (kind === "note" && h.notificationOccurred) { h.notificationOccurred(what); }
      if (kind === "select" && h.selectionChanged) { h.selectionChanged(); }
    } catch (e) { /* an older Telegram client */ }
  }

  // -- sound --------------------------------------------------------------------------------

  try { sound = localStorage.getItem("domino:sound") === "on"; } catch (e) { sound = false; }

  function click(freq, length) {
    if (!sound) { return; }
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      var osc = audio.createOscillator(), gain = audio.createGain(), now = audio.currentTime;
      osc.type = "triangle";
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.12, now);
      gain.gain.exponentialRampToValueAtTime(0.001, now + length);
      osc.connect(gain);
      gain.connect(audio.destination);
      osc.start(now);
      osc.stop(now + length);
    } catch (e) { sound = false; }
  }

  function soundButton() {
    var b = $("sound");
    if (!b || b.getAttribute("data-on") === String(sound)) { return; }
    b.setAttribute("data-on", String(sound));
    var S = window.dominoStrings || {};
    b.setAttribute("aria-pressed", String(sound));
    b.innerHTML = '<svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">' +
      '<path d="M3 9h4l5-4v14l-5-4H3z" fill="currentColor"/>' + (sound
        ? '<path d="M15 8.5a4.5 4.5 0 0 1 0 7M17.5 6a8 8 0 0 1 0 12" fill="none" ' +
          'stroke="currentColor" stroke-width="2" stroke-linecap="round"/>'
        : '<path d="M15.5 9.5l5 5m0-5l-5 5" stroke="currentColor" stroke-width="2" ' +
          'stroke-linecap="round"/>') + "</svg>";
    b.setAttribute("aria-label", S.sound || "Sound");
    b.title = S.sound || "Sound";
    b.hidden = false;
  }

  // -- animation ----------------------------------------------------------------------------

  function centre(r) { return [(r.left + r.right) / 2, (r.top + r.bottom) / 2]; }

  function tilesOf(svg) {
    var out = {};
    if (!svg) { return out; }
    svg.querySelectorAll("g[data-tile]").forEach(function (g) {
      out[g.getAttribute("data-tile")] = g;
    });
    return out;
  }

  // where a new tile came from: the hand tile touched, else the panel of the seat that moved
  function source(before, st) {
    if (from) { var r = from; from = null; return r; }
    var seat = Array.isArray(st.log) && st.log.length ? st.log[0].seat : before && before.to_move;
    var panel = seat === null || seat === undefined ? null
      : document.querySelector('#seats [data-seat="' + seat + '"]');
    return panel ? panel.getBoundingClientRect() : null;
  }

  function slide(before, st, board, oldTiles) {
    var svg = board.querySelector("svg");
    if (!svg || !svg.viewBox || !svg.viewBox.baseVal) { return; }
    var fresh = Object.keys(tilesOf(svg)).filter(function (k) { return !oldTiles[k]; });
    if (!fresh.length || fresh.length > 2) { return; }  // a new deal: no slide
    var start = source(before, st);
    if (!start) { return; }
    var box = svg.getBoundingClientRect();
    if (!box.width) { return; }
    var scale = svg.viewBox.baseVal.width / box.width, a = centre(start);
    var tiles = tilesOf(svg);
    fresh.forEach(function (key) {
      var g = tiles[key], b = centre(g.getBoundingClientRect());
      var dx = (a[0] - b[0]) * scale, dy = (a[1] - b[1]) * scale;
      g.animate([{transform: "translate(" + dx + "px," + dy + "px)", opacity: 0.6},
                 {transform: "translate(0,0)", opacity: 1}],
                {duration: 220, easing: "cubic-bezier(.2,.7,.3,1)"});
    });
  }

  // a finished trick taken off the table: its tiles swept towards the tile that took it
  function sweep(board, old, st) {
    if (!old || !/board-tricks/.test(old.getAttribute("class") || "")) { return; }
    var tiles = old.querySelectorAll("g[data-tile]");
    var now = board.querySelectorAll("svg g[data-tile]").length;
    if (tiles.length < 2 || now >= tiles.length) { return; }
    var box = board.getBoundingClientRect();
    var layer = document.createElement("div");
    layer.className = "sweep";
    layer.setAttribute("aria-hidden", "true");
    old.querySelectorAll(":scope > :not(g[data-tile])").forEach(function (n) { n.remove(); });
    layer.appendChild(old);
    board.appendChild(layer);
    var vb = old.viewBox.baseVal, winner = old.querySelector("g[data-tile] .tile.last");
    var taker = winner ? winner.parentNode : tiles[0];
    var bb = taker.getBBox ? taker.getBBox() : {x: vb.width / 2, y: vb.height / 2, width: 0, height: 0};
    var tx = (bb.x + bb.width / 2 - vb.x - vb.width / 2) * 1.6;
    var ty = (bb.y + bb.height / 2 - vb.height / 2) * 1.6;
    var run = layer.animate([{transform: "translate(0,0)", opacity: 1},
      {transform: "translate(" + (tx * box.width / vb.width) + "px," +
        (ty * box.width / vb.width) + "px) scale(.6)", opacity: 0}],
      {duration: 380, easing: "ease-in"});
    run.onfinish = function () { layer.remove(); };
    setTimeout(function () { layer.remove(); }, 800);
    void st;
  }

  // on a desktop, the hand's tiles about as large as the board's (never a thumbnail beside
  // tiles three times its size)
  function fitHand(board) {
    if (window.innerWidth < 700) { return; }
    var g = board.querySelector("svg g[data-tile]");
    if (!g) { return; }
    var r = g.getBoundingClientRect(), side = Math.min(r.width, r.height);
    if (side > 0) {
      var w = Math.round(Math.max(48, Math.min(side * 1.05, 76)));
      document.documentElement.style.setProperty("--hand-w", w + "px");
    }
  }

  // -- drag ---------------------------------------------------------------------------------

  function over(node) {
    document.querySelectorAll("#board .target.over").forEach(function (t) { t.classList.remove("over"); });
    var t = node && node.closest ? node.closest("#board .target.lit") : null;
    if (t) { t.classList.add("over"); }
  }

  document.addEventListener("pointerdown", function (ev) {
    var b = ev.target.closest && ev.target.closest("#hand .hand-tile");
    var T = window.DominoTable;
    if (!b || b.classList.contains("dim") || !T || !T.mine() || ev.button > 0) { return; }
    drag = {id: ev.pointerId, x: ev.clientX, y: ev.clientY, button: b, on: false, ghost: null,
            tile: b.getAttribute("data-tile")};
  });

  document.addEventListener("pointermove", function (ev) {
    if (!drag || ev.pointerId !== drag.id) { return; }
    var dx = ev.clientX - drag.x, dy = ev.clientY - drag.y;
    if (!drag.on) {
      if (dx * dx + dy * dy < 64) { return; }
      drag.on = true;
      window.DominoTable.pick(drag.tile);
      var g = drag.button.cloneNode(true), r = drag.button.getBoundingClientRect();
      g.className = "hand-tile ghost";
      g.removeAttribute("data-move");
      g.removeAttribute("data-tile");
      g.setAttribute("aria-hidden", "true");
      g.style.width = r.width + "px";
      g.style.height = r.height + "px";
      drag.dx = r.left - drag.x;
      drag.dy = r.top - drag.y;
      document.body.appendChild(g);
      drag.ghost = g;
      try { drag.button.setPointerCapture(ev.pointerId); } catch (e) { /* released */ }
    }
    drag.ghost.style.transform = "translate(" + (ev.clientX + drag.dx) + "px," +
      (ev.clientY + drag.dy) + "px)";
    over(document.elementFromPoint(ev.clientX, ev.clientY));
    ev.preventDefault();
  });

  function endDrag(ev, cancelled) {
    if (!drag || ev.pointerId !== drag.id) { return; }
    var d = drag;
    drag = null;
    if (!d.on) { return; }
    justDragged = true;
    setTimeout(function () { justDragged = false; }, 0);
    if (d.ghost) { d.ghost.remove(); }
    over(null);
    if (!cancelled) {
      from = d.button.getBoundingClientRect();
      var node = document.elementFromPoint(ev.clientX, ev.clientY);
      if (!window.DominoTable.drop(node, d.tile)) { from = null; }
    }
  }
  document.addEventListener("pointerup", function (ev) { endDrag(ev, false); });
  document.addEventListener("pointercancel", function (ev) { endDrag(ev, true); });

  document.addEventListener("DOMContentLoaded", soundButton);
  document.addEventListener("click", function (ev) {
    if (!ev.target.closest || !ev.target.closest("#sound")) { return; }
    sound = !sound;
    try { localStorage.setItem("domino:sound", sound ? "on" : "off"); } catch (e) { /* kept for now */ }
    soundButton();
    click(880, 0.05);
  });

  window.DominoFeel = {
    dragged: function () { return justDragged; },
    // what the board was before a new state changes it in place: its tiles (a slide's
    // start), and a trick's picture itself (a copy: swept away)
    keep: function (board) {
      var svg = board.querySelector("svg");
      return {tiles: tilesOf(svg), svg: svg && /board-tricks/.test(svg.getAttribute("class") || "")
        ? svg.cloneNode(true) : null};
    },
    picked: function () { haptic("select"); click(1320, 0.03); },
    refused: function () { haptic("note", "error"); click(180, 0.12); },
    sent: function (node) {
      if (!from && node && node.getBoundingClientRect) { from = node.getBoundingClientRect(); }
      haptic("impact", "light");
    },
    shown: function (before, st, board, old) {
      soundButton();
      if (before && before.log && st.log && before.log.length !== st.log.length) {
        click(st.to_move === st.seat ? 660 : 520, 0.04);
      }
      var oldTiles = old ? old.tiles : {};
      requestAnimationFrame(function () {
        fitHand(board);
        if (!before || calm()) { from = null; return; }
        try {
          slide(before, st, board, oldTiles);
          sweep(board, old && old.svg, st);
        } catch (e) { /* an animation is never worth an error */ }
        from = null;
      });
    }
  };
}());
