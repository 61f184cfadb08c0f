// A page rendered on the server (team card, player card, crosstable, prizes, a round's pairing) is
// read again when the standings stream says a result changed: at most once a second, and not while
// the reader selects text.
"use strict";

(async function live() {
  const T = await currentTournament();
  if (!T) return;
  let due = null;
  const reload = () => {
    if (String(window.getSelection() || "")) { due = setTimeout(reload, 1000); return; }
    location.reload();
  };
  let first = true; // the stream's first message is the standings as they are: what the page shows
  new EventSource(`/api/tournaments/${encodeURIComponent(T.tournament_id)}/stream`).addEventListener("standings", () => {
    if (first) { first = false; return; }
    if (due === null) due = setTimeout(reload, 1000);
  });
})();
