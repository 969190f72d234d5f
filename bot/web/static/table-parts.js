// The web table's panels around the board (docs/web-page.md): the players' panels
// ([data-seat]), the turn timer, the move log ([data-log]) and the live region that reads
// each new move aloud ([data-live]), the result panel ([data-result]) and the action
// buttons (hint, give up with its question, rematch, new game, review).
// table.js calls DominoParts.render(state, ctx) once per state; every field may be missing
// (an older server): the page then shows what it has.
(function () {
  "use strict";
  var $ = function (id) { return document.getElementById(id); };
  var S = {}, ctx = null, timer = null, timerTick = 0, lastLog = null, resultKey = null;
  var resultTimer = 0, busy = null, lastActions = null;

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text !== undefined && text !== null && text !== "") { e.textContent = text; }
    return e;
  }

  function word(key, fallback) { return S[key] || fallback; }

  // -- the players' panels ------------------------------------------------------------------

  function seatsOf(st) {
    if (Array.isArray(st.seats)) { return st.seats; }
    return (st.names || []).map(function (name, i) {  // an older state: names and the turn
      return {seat: i, name: name, you: i === st.seat, turn: i === st.to_move && !st.over,
              count: null, score: null, ai: null, away: false, label: name};
    });
  }

  function panels(st) {
    var box = $("seats");
    box.textContent = "";
    var seats = seatsOf(st);
    box.hidden = !seats.length;
    box.setAttribute("aria-label", word("players", "Players"));
    box.classList.toggle("crowded", seats.length > 3);
    seats.forEach(function (p) {
      var panel = el("div", {"class": "seat", "data-seat": String(p.seat), role: "group",
        "aria-label": p.label || p.name || ""});
      if (p.turn) { panel.classList.add("turn"); panel.setAttribute("aria-current", "true"); }
      if (p.you) { panel.classList.add("you"); }
      if (p.away) { panel.classList.add("away"); }
      if (p.team !== null && p.team !== undefined) { panel.classList.add("team" + p.team); }
      var head = el("div", {"class": "who", "aria-hidden": "true"});
      head.appendChild(el("span", {"class": "dot seat" + p.seat}));
      head.appendChild(el("span", {"class": "name"}, p.name || "#" + (p.seat + 1)));
      if (p.you) { head.appendChild(el("span", {"class": "tag you-tag"}, word("you", "you"))); }
      panel.appendChild(head);
      var facts = el("div", {"class": "facts", "aria-hidden": "true"});
      if (p.count !== null && p.count !== undefined) {
        facts.appendChild(el("span", {"class": "count", title: word("in_hand", "in hand")},
          String(p.count)));
      }
      if (p.score !== null && p.score !== undefined && p.score !== "") {
        facts.appendChild(el("span", {"class": "score"}, String(p.score)));
      }
      if (p.ai) { facts.appendChild(el("span", {"class": "tag ai"}, p.ai)); }
      if (p.away) { facts.appendChild(el("span", {"class": "tag away-tag"}, word("away", "away"))); }
      panel.appendChild(facts);
      panel.appendChild(el("div", {"class": "clock", "aria-hidden": "true"}));
      box.appendChild(panel);
    });
    startTimer(st);
  }

  // the turn timer: counts down from the seconds left when the state was made
  function startTimer(st) {
    clearInterval(timerTick);
    timer = null;
    var t = st.timer;
    if (!t || typeof t.left !== "number" || st.over) { return; }
    timer = {seat: t.seat, end: performance.now() + t.left * 1000, total: t.total || t.left};
    tickTimer();
    timerTick = setInterval(tickTimer, 1000);
  }

  function tickTimer() {
    if (!timer) { return; }
    var panel = document.querySelector('#seats [data-seat="' + timer.seat + '"] .clock');
    if (!panel) { return; }
    var left = Math.max(0, Math.ceil((timer.end - performance.now()) / 1000));
    var m = Math.floor(left / 60), s = left % 60;
    panel.textContent = m + ":" + (s < 10 ? "0" : "") + s;
    panel.classList.toggle("low", left <= 10);
    panel.style.setProperty("--left", String(Math.min(1, left / timer.total)));
    if (!left) { clearInterval(timerTick); }
  }

  // -- the move log and the live region -----------------------------------------------------

  function log(st) {
    var list = $("log"), entries = Array.isArray(st.log) ? st.log : null;
    $("log-box").hidden = !entries;
    document.body.classList.toggle("no-log", !entries);
    if (!entries) { return; }
    $("log-title").textContent = word("log", "Moves");
    var top = entries.length ? entries[0].n : -1;
    if (lastLog !== null && top === lastLog.top && entries.length === lastLog.count) { return; }
    var fresh = lastLog === null ? [] : entries.filter(function (e) { return e.n > lastLog.top; });
    // the new entries on top of those shown (the whole list again only when it changed
    // otherwise: a new game, a reconnection)
    var grows = lastLog !== null && entries.length === lastLog.count + fresh.length &&
      list.firstChild && (entries[fresh.length] || {}).n === Number(list.firstChild.getAttribute("data-log-entry"));
    lastLog = {top: top, count: entries.length};
    if (!grows) { list.textContent = ""; }
    var frag = document.createDocumentFragment();
    (grows ? fresh : entries).forEach(function (e) {
      var li = el("li", {"data-log-entry": String(e.n)}, e.text);
      if (e.seat !== null && e.seat !== undefined) { li.classList.add("by", "seat" + e.seat); }
      else { li.classList.add("table-entry"); }
      frag.appendChild(li);
    });
    list.insertBefore(frag, list.firstChild);
    if (fresh.length) {  // read the new moves aloud, oldest first
      $("live").textContent = fresh.slice(0, 6).reverse().map(function (e) { return e.text; })
        .join(" ");
    }
  }

  // -- the result panel ---------------------------------------------------------------------

  function shownKeys() {
    try {
      return JSON.parse(sessionStorage.getItem("domino:results:" + ctx.table) || "[]");
    } catch (e) { return []; }
  }

  function remember(key) {
    try {
      var keys = shownKeys();
      if (keys.indexOf(key) < 0) { keys.push(key); }
      sessionStorage.setItem("domino:results:" + ctx.table, JSON.stringify(keys.slice(-50)));
    } catch (e) { /* private mode: shown again after a reload */ }
  }

  function result(st) {
    var r = st.result;
    if (!r || !r.key || resultKey === r.key || shownKeys().indexOf(r.key) >= 0) { return; }
    resultKey = r.key;
    remember(r.key);
    var box = $("result");
    box.textContent = "";
    box.setAttribute("data-kind", r.kind || "");
    box.appendChild(el("h2", {id: "result-title"}, r.title || ""));
    if (r.board_svg) {
      var pic = el("div", {"class": "result-board"});
      pic.innerHTML = r.board_svg;
      var svg = pic.querySelector("svg");
      if (svg) {
        svg.setAttribute("role", "img");
        svg.setAttribute("aria-label", r.alt || r.title || word("board", "The table"));
        svg.querySelectorAll(".target").forEach(function (t) { t.remove(); });
      }
      box.appendChild(pic);
    }
    var lines = el("ul", {"class": "result-lines"});
    (r.lines || []).forEach(function (line) { lines.appendChild(el("li", {}, line)); });
    box.appendChild(lines);
    if ((r.hands || []).length) {
      var hands = el("ul", {"class": "result-hands"});
      r.hands.forEach(function (h) {
        var li = el("li", {"data-seat-hand": String(h.seat)});
        li.appendChild(el("span", {"class": "name"}, h.name || ""));
        li.appendChild(el("span", {"class": "tiles"}, (h.tiles || []).join(" ") || "—"));
        if (h.count !== null && h.count !== undefined) {
          li.appendChild(el("span", {"class": "points"}, "(" + h.count + ")"));
        }
        hands.appendChild(li);
      });
      box.appendChild(hands);
    }
    var go = el("button", {type: "button", "class": "move", "data-action": "continue"},
      word("continue", "Continue"));
    go.addEventListener("click", closeResult);
    box.appendChild(go);
    box.hidden = false;
    document.body.classList.add("showing-result");
    clearTimeout(resultTimer);
    var wait = r.wait === undefined ? 8 : r.wait;
    if (typeof wait === "number" && r.kind !== "game") {
      box.style.setProperty("--wait", wait + "s");
      box.classList.add("timed");
      resultTimer = setTimeout(closeResult, wait * 1000);
    } else { box.classList.remove("timed"); }
    if (!document.activeElement || document.activeElement === document.body ||
        document.activeElement.closest("#hand, #board, #buttons")) {
      go.focus({preventScroll: true});
    }
  }

  function closeResult() {
    clearTimeout(resultTimer);
    var box = $("result");
    if (box.hidden) { return; }
    var focused = box.contains(document.activeElement);
    box.hidden = true;
    document.body.classList.remove("showing-result");
    if (focused) {
      var next = document.querySelector("#hand .hand-tile:not(.dim), #buttons button, #actions button");
      if (next) { next.focus({preventScroll: true}); }
    }
  }

  // -- the action buttons -------------------------------------------------------------------

  function actionsOf(st) {
    if (Array.isArray(st.actions)) { return st.actions; }
    // an older state: the review of a finished game, from a player's page
    return st.over && st.seat !== null && st.seat !== undefined && S.review
      ? [{action: "review", label: S.review}] : [];
  }

  function actions(st) {
    var bar = $("actions"), list = actionsOf(st), same = JSON.stringify(list);
    if (same === lastActions) { return; }  // an open question or menu stays open
    lastActions = same;
    bar.textContent = "";
    closeAsk();
    list.forEach(function (a) {
      var b;
      if (a.action === "new-game") {
        b = el("a", {"class": "action", href: "/", "data-action": "new-game"}, a.label);
      } else {
        b = el("button", {type: "button", "class": "action", "data-action": a.action}, a.label);
        if (a.action === "hint" && (a.levels || []).length) {
          b.setAttribute("aria-haspopup", "true");
          b.setAttribute("aria-expanded", "false");
        }
        b.addEventListener("click", function () { act(a, b); });
      }
      bar.appendChild(b);
    });
    bar.hidden = !bar.childNodes.length;
    if (!(st.over && st.seat !== null && st.seat !== undefined)) {
      $("review-text").hidden = true;
    }
  }

  function act(a, button) {
    if (a.action === "hint" && (a.levels || []).length) { levels(a, button); return; }
    if (a.action === "give-up") { ask(a, button); return; }
    if (a.action === "review") {
      if (ctx.post({type: "review"})) { wait(button); say(word("reviewing", "")); }
      return;
    }
    var message = {type: "action", action: a.action};
    if (ctx.post(message)) { wait(button); }
  }

  function say(text) {
    var m = $("message");
    m.textContent = text;
    m.hidden = !text;
  }

  function wait(button) {
    answered();
    busy = button;
    button.disabled = true;
    button.setAttribute("aria-busy", "true");
  }

  function answered() {
    if (busy) { busy.disabled = false; busy.removeAttribute("aria-busy"); busy = null; }
  }

  // a small menu of hint levels under the Hint button
  function levels(a, button) {
    var menu = $("ask");
    if (!menu.hidden && menu.getAttribute("data-for") === "hint") { closeAsk(); return; }
    menu.textContent = "";
    menu.setAttribute("data-for", "hint");
    a.levels.forEach(function (lv) {
      var b = el("button", {type: "button", "class": "action", "data-level": String(lv.level)},
        lv.label);
      b.addEventListener("click", function () {
        closeAsk();
        if (ctx.post({type: "action", action: "hint", level: lv.level})) { wait(button); }
      });
      menu.appendChild(b);
    });
    menu.appendChild(cancelButton());
    menu.hidden = false;
    button.setAttribute("aria-expanded", "true");
    menu.querySelector("button").focus();
  }

  // a question before the action (Give up?): yes [data-action=confirm], no
  function ask(a, button) {
    var menu = $("ask");
    menu.textContent = "";
    menu.setAttribute("data-for", a.action);
    menu.setAttribute("role", "alertdialog");
    var q = el("p", {"class": "question", id: "ask-question"},
      a.confirm || a.label + "?");
    menu.setAttribute("aria-labelledby", "ask-question");
    menu.appendChild(q);
    var yes = el("button", {type: "button", "class": "move danger", "data-action": "confirm"},
      a.yes || a.label);
    yes.addEventListener("click", function () {
      closeAsk();
      if (ctx.post({type: "action", action: a.action})) { wait(button); }
    });
    menu.appendChild(yes);
    menu.appendChild(cancelButton(a.no));
    menu.hidden = false;
    yes.focus();
  }

  function cancelButton(text) {
    var no = el("button", {type: "button", "class": "cancel", "data-action": "cancel"},
      text || word("cancel", "Cancel"));
    no.addEventListener("click", function () { closeAsk(true); });
    return no;
  }

  function closeAsk(refocus) {
    var menu = $("ask");
    if (menu.hidden) { return false; }
    var owner = document.querySelector('#actions [data-action="' + menu.getAttribute("data-for") + '"]');
    menu.hidden = true;
    menu.textContent = "";
    menu.removeAttribute("role");
    if (owner) {
      owner.setAttribute("aria-expanded", "false");
      if (refocus) { owner.focus(); }
    }
    return true;
  }

  function hint(text) {
    var box = $("hint");
    box.textContent = text;
    box.hidden = !text;
  }

  // -- the board, changed in place -----------------------------------------------------------

  // Put `html` (one <svg>) in `box`, touching only what changed: each child of the new
  // picture that equals the old one's next children (isEqualNode, a few ahead) keeps the
  // old node; the others are put in or taken out, never moved (a node moved is styled and
  // laid out again); the root takes the new one's attributes. Anything else: replaced whole.
  var AHEAD = 8;
  function patch(box, html) {
    var old = box.firstElementChild, svg = null;
    if (html && old && box.childNodes.length === 1 && old.tagName.toLowerCase() === "svg") {
      var tpl = document.createElement("template");
      tpl.innerHTML = html;
      svg = tpl.content.childNodes.length === 1 ? tpl.content.firstElementChild : null;
    }
    if (!svg || svg.tagName.toLowerCase() !== "svg") { box.innerHTML = html || ""; return; }
    Array.prototype.slice.call(old.attributes).forEach(function (a) {
      if (!svg.hasAttribute(a.name)) { old.removeAttribute(a.name); }
    });
    Array.prototype.slice.call(svg.attributes).forEach(function (a) {
      if (old.getAttribute(a.name) !== a.value) { old.setAttribute(a.name, a.value); }
    });
    var olds = Array.prototype.slice.call(old.childNodes), j = 0;
    Array.prototype.slice.call(svg.childNodes).forEach(function (n) {
      for (var k = j; k < olds.length && k < j + AHEAD; k++) {
        if (olds[k].isEqualNode(n)) {
          for (; j < k; j++) { old.removeChild(olds[j]); }
          j = k + 1;
          return;
        }
      }
      old.insertBefore(n, j < olds.length ? olds[j] : null);
    });
    for (; j < olds.length; j++) { old.removeChild(olds[j]); }
  }

  window.DominoParts = {
    patch: patch,
    render: function (st, c) {
      ctx = c;
      S = c.strings || {};
      panels(st);
      log(st);
      actions(st);
      result(st);
    },
    hint: hint,
    answered: answered,
    closeResult: closeResult,
    escape: function () {  // Escape closes the question, then the result panel
      if (closeAsk(true)) { return true; }
      if (!$("result").hidden) { closeResult(); return true; }
      return false;
    }
  };
}());
