// The local home page: Start opens a table against computer players (POST
// /api/local/start, same origin, JSON) and goes to its page. No inline script: the words
// come from the domino-config JSON element.
"use strict";
(function () {
  const config = JSON.parse(document.getElementById("domino-config").textContent);
  const message = document.querySelector(".message");
  function say(text) {
    message.textContent = text;
    message.hidden = !text;
  }
  document.querySelectorAll("[data-variant]").forEach(function (card) {
    const button = card.querySelector("button.start");
    button.addEventListener("click", async function () {
      const players = card.querySelector("select[name=players]");
      const level = card.querySelector("select[name=level]");
      const body = {variant: card.dataset.variant,
                    players: players ? Number(players.value) : 1,
                    level: level ? level.value : "normal"};
      button.disabled = true;
      say("");
      button.setAttribute("aria-busy", "true");
      try {
        const answer = await fetch(config.api, {
          method: "POST", headers: {"Content-Type": "application/json"},
          body: JSON.stringify(body)});
        const data = await answer.json().catch(function () { return {}; });
        if (answer.ok && data.url) {
          window.location.assign(data.url);
          return;
        }
        say(data.error || config.strings.failed);
      } catch (e) {
        say(config.strings.failed);
      }
      button.disabled = false;
      button.removeAttribute("aria-busy");
    });
  });
})();
