// The Telegram Mini App's launcher: trades Telegram's signed launch data (initData) for a
// session at /api/telegram/session, writes the socket's address into the page's config,
// then loads the board's script (static/table.js), which opens the socket.
(function () {
  "use strict";
  var tg = window.Telegram && window.Telegram.WebApp;
  var me = document.currentScript;
  var config = document.getElementById("domino-config");
  // the page's words, in the user's language (bot/web/board.py's page_strings)
  var S = Object.assign({
    outside_telegram: "Open this page from Telegram.",
    launch_refused: "Telegram's launch data was refused; open the app again.",
    no_table: "Open the web table from a table's message."
  }, (JSON.parse(config.textContent || "{}").strings) || {});
  function say(text) {
    var p = document.createElement("p");
    p.setAttribute("role", "alert");
    p.textContent = text;
    document.body.appendChild(p);
  }
  if (!tg || !tg.initData) {
    say(S.outside_telegram);
    return;
  }
  tg.ready();
  var table = (me && me.getAttribute("data-table")) || "";
  fetch("/api/telegram/session", {
    method: "POST",
    headers: {"Content-Type": "application/json"},
    body: JSON.stringify({init_data: tg.initData, table: table})
  }).then(function (r) {
    if (!r.ok) { throw new Error("refused"); }
    return r.json();
  }).then(function (session) {
    if (!session.ws) { say(S.no_table); return; }
    var data = JSON.parse(config.textContent);
    data.ws = session.ws;
    data.lang = session.lang || data.lang;
    config.textContent = JSON.stringify(data);
    var s = document.createElement("script");
    s.src = "/static/table.js";
    document.head.appendChild(s);
  }).catch(function () { say(S.launch_refused); });
})();
