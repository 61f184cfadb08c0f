// A team's page: players in board order and the team's rounds, kept live by the standings stream.
"use strict";

(async function team() {
  const $ = (id) => document.getElementById(id);
  const T = await currentTournament();
  if (!T) { $("title").textContent = "No tournament is served"; return; }
  const base = `/api/tournaments/${encodeURIComponent(T.tournament_id)}`;
  const teamId = decodeURIComponent(location.pathname.split("/").pop());
  const kinds = { bye: "bye", absent: "not paired", pending: "in progress", "forfeit-win": "won by forfeit",
    "forfeit-loss": "lost by forfeit", "forfeit-draw": "double forfeit" };

  async function load() {
    let t;
    try { t = await Api.get(`${base}/teams/${encodeURIComponent(teamId)}`); }
    catch (e) { $("title").textContent = e.message; return; }
    document.title = `${t.name}: ${T.name}`;
    $("title").textContent = `${t.name} (${t.federation}), SNo ${t.pairing_number}` +
      (t.withdrawn_from_round ? `, withdrawn from round ${t.withdrawn_from_round}` : "");
    $("players").tBodies[0].replaceChildren(...t.players.map((p) => el("tr", {},
      el("td", { class: "num" }, p.board_order), el("td", {}, p.name), el("td", {}, p.title), el("td", { class: "num" }, p.rating ?? ""))));
    $("rounds").tBodies[0].replaceChildren(...t.rounds.map((r) => el("tr", { dataset: { round: r.round } },
      el("td", { class: "num" }, r.round),
      el("td", { class: "num" }, r.table ?? ""),
      el("td", {}, r.opponent
        ? el("a", { href: `/teams/${encodeURIComponent(r.opponent.team_id)}` }, r.opponent.name) : "",
        kinds[r.kind] ? ` (${kinds[r.kind]})` : ""),
      el("td", { class: "num" }, r.opponent ? r.opponent.pairing_number : ""),
      el("td", { class: "boards" }, r.boards.map((b) => el("span", { class: b.result ? null : "none", title: `board ${b.board}` },
        `${b.colour} ${b.result ? code(b.result) : "·"}`))),
      el("td", { class: "num" }, pts(r.gp)),
      el("td", { class: "num" }, r.mp ?? ""),
      el("td", { class: "num" }, r.rank_after ?? ""),
      el("td", { class: "num" }, r.mp_after ?? ""))));
  }

  await load();
  new EventSource(`${base}/stream`).addEventListener("standings", load);
})();
