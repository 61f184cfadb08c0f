// The scoreboard's boards in progress (issue 29): what a live game feed shows of the round, table
// by table: move number, last move, clocks and the position (an SVG board drawn by the server with
// python-chess). Refreshed on every standings-stream message, as the standings are, and every 5 s.
"use strict";

(async function games() {
  const T = await currentTournament();
  if (!T) return;
  const base = `/api/tournaments/${encodeURIComponent(T.tournament_id)}`;
  const $ = (id) => document.getElementById(id);

  function card(g) {
    const svg = el("div", { class: "game-board" });
    svg.innerHTML = g.svg;  // the server's SVG (python-chess), no user text in it
    const state = g.result ? `result ${g.result}` : g.reported ? `reported ${g.reported}` : `move ${g.move}`;
    return el("div", { class: "game", dataset: { table: g.table, board: g.board, ply: g.ply } },
      el("div", { class: "game-head" }, `Table ${g.table} board ${g.board}`),
      el("div", { class: "game-players" }, `${g.white} – ${g.black}`),
      svg,
      el("div", { class: "game-state" }, `${state}${g.last_move ? ` · last ${g.last_move}` : ""}`),
      el("div", { class: "game-clocks" }, g.white_clock_text || g.black_clock_text ? `${g.white_clock_text || "–"} | ${g.black_clock_text || "–"}` : ""));
  }

  async function refresh() {
    let view;
    try { view = await Api.get(`${base}/games`); } catch (e) { return; }
    const games = view.games;
    $("games-section").hidden = games.length === 0;
    const playing = games.filter((g) => g.in_progress).length;
    $("games-title").textContent = `Round ${view.round}: ${playing} of ${games.length} games in progress`;
    $("games").replaceChildren(...games.map(card));
  }

  await refresh();
  const stream = new EventSource(`${base}/stream`);
  stream.addEventListener("standings", refresh);
  setInterval(refresh, 5000);
})();
