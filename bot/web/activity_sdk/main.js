// The Discord Activity's launcher (bot/web/activity.py; bundled with Discord's Embedded App
// SDK into bot/web/static/discord-sdk.js by tools/build_activity.sh — edit this file, then
// run the script). It waits for Discord's handshake (ready), asks Discord for an authorization
// code (authorize), trades it for a web-table session at /api/discord/session, gives the
// access token back to Discord (authenticate), writes the socket's address and the language
// into the page's config, then loads the board's script (static/table.js), which opens the
// socket. Only the /discord page loads it: the local mode and the Telegram Mini App never do.
import {DiscordSDK} from "@discord/embedded-app-sdk";

(function () {
  "use strict";
  var me = document.currentScript;
  var config = document.getElementById("domino-config");
  var S = Object.assign({
    outside_discord: "Open this page from Discord: it is a Discord Activity.",
    launch_refused: "Discord did not confirm who you are; open the Activity again.",
    no_table: "There is no table in this channel yet: start one with /domino start."
  }, (JSON.parse(config.textContent || "{}").strings) || {});
  function say(text) {
    var p = document.createElement("p");
    p.setAttribute("role", "alert");
    p.className = "launch-note";
    p.textContent = text;
    document.body.appendChild(p);
  }
  var clientId = (me && me.getAttribute("data-client-id")) || "";
  var sdk;
  try {
    sdk = new DiscordSDK(clientId, {disableConsoleLogOverride: true});
  } catch (e) {  // no frame_id / instance_id: not opened by Discord
    say(S.outside_discord);
    return;
  }
  function boot(session) {
    var data = JSON.parse(config.textContent);
    data.ws = session.ws;
    data.lang = session.lang || data.lang;
    data.strings = session.strings || data.strings;  // Discord's language for the user
    config.textContent = JSON.stringify(data);
    document.documentElement.lang = data.lang;
    var s = document.createElement("script");
    s.src = "/static/table.js";
    document.head.appendChild(s);
  }
  sdk.ready().then(function () {
    if (window.performance && performance.mark) { performance.mark("domino-sdk-ready"); }
    return sdk.commands.authorize({
      client_id: clientId, response_type: "code", state: "", prompt: "none",
      scope: ["identify", "guilds"]
    });
  }).then(function (auth) {
    return fetch("/api/discord/session", {
      method: "POST",
      headers: {"Content-Type": "application/json"},
      body: JSON.stringify({code: auth.code, instance_id: sdk.instanceId,
                            channel_id: sdk.channelId, guild_id: sdk.guildId})
    });
  }).then(function (r) {
    if (!r.ok) { throw new Error("refused"); }
    return r.json();
  }).then(function (session) {
    return sdk.commands.authenticate({access_token: session.access_token}).then(function () {
      session.access_token = "";  // no longer needed here: not kept
      if (!session.ws) { say((session.strings || S).no_table || S.no_table); return; }
      boot(session);
    });
  }).catch(function () { say(S.launch_refused); });
})();
