// The arbiter page's live feed (issue 29): reported results to confirm (one board or the whole
// match: the ConfirmResults command), draw-offer flags, possible late arrivals and the feed's
// problems. Every write is a command posted with the chief's token; no rule lives here.
"use strict";

(async function arbiterFeed() {
  const $ = (id) => document.getElementById(id);
  const setup = await Api.get("/api/setup");
  if (!setup.tournament_id) return;
  const tid = setup.tournament_id;
  const base = `/api/tournaments/${encodeURIComponent(tid)}`;
  const token = () => $("token").value.trim();

  function say(kind, text) { $("message").hidden = false; $("message").className = kind; $("message").textContent = text; }

  async function confirm(rnd, table, board) {
    const body = { command: "ConfirmResults", round: rnd, table };
    if (board) body.board = board;
    const what = board ? `Confirm round ${rnd} table ${table} board ${board}` : `Confirm round ${rnd} table ${table}`;
    const r = await Api.post(`${base}/commands`, body, token());
    if (r.ok) say("ok", `${what}: ${r.body.message || "recorded"}`); else say("error", refusal(r, what));
    await refresh();
  }

  async function refresh() {
    let view;
    try { view = await Api.get(`${base}/feed`); } catch (e) { return; }
    const tables = new Set();
    $("feed-confirm").tBodies[0].replaceChildren(...view.to_confirm.map((g) => {
      const first = !tables.has(`${g.round}/${g.table}`);
      tables.add(`${g.round}/${g.table}`);
      return el("tr", { dataset: { round: g.round, table: g.table, board: g.board } },
        el("td", { class: "num" }, String(g.round)), el("td", { class: "num" }, String(g.table)), el("td", { class: "num" }, String(g.board)),
        el("td", {}, g.white), el("td", {}, g.black),
        el("td", { class: "ctr" }, g.changed_to ? `${g.reported}, then ${g.changed_to}` : g.reported),
        el("td", {}, el("button", { type: "button", class: "confirm-board", onclick: () => confirm(g.round, g.table, g.board) }, "Confirm"),
          first ? el("button", { type: "button", class: "confirm-match", onclick: () => confirm(g.round, g.table, null) }, "Confirm the match") : ""));
    }));
    $("feed-flags").replaceChildren(
      ...view.draw_flags.map((f) => el("li", { class: "flag" }, `Round ${f.round} table ${f.table} board ${f.board}: drawn after ${f.ply} plies, ${f.rule} (${f.rule_source || "the profile"}); the result stands.`)),
      ...view.late.map((l) => el("li", { class: "flag" }, `Round ${l.round} table ${l.table} board ${l.board}: ${l.player || l.colour} has not moved after ${l.waited_s} s (default time ${l.default_time_s} s): a possible late-arrival forfeit.`)),
      ...view.disagree.map((d) => el("li", { class: "flag" }, `Round ${d.round} table ${d.table} board ${d.board}: the feed reported ${d.reported}, the result is ${d.result} (the arbiter's stands).`)));
    $("feed-problems").replaceChildren(...view.problems.map((p) => el("li", { class: "problem", dataset: { kind: p.kind } },
      `Feed problem (${p.kind}) in ${p.game || p.source}: ${p.reason}`)));
  }

  await refresh();
  setInterval(refresh, 3000);
})();
