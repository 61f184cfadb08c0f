// A team captain's page: the team's nominated players and a line-up form for the round to pair.
// The token (issued by the chief arbiter for one team) and the team come from #token=...&team=...;
// the line-up is one SubmitLineup command, refused in words with its field and rule. No rule here.
"use strict";

(async function captain() {
  const $ = (id) => document.getElementById(id);
  const hash = new URLSearchParams(location.hash.slice(1));
  const teamId = hash.get("team") || localStorage.getItem("olympiad.captain.team") || "";
  if (hash.has("token")) {
    localStorage.setItem("olympiad.captain", hash.get("token"));
    localStorage.setItem("olympiad.captain.team", teamId);
    history.replaceState(null, "", location.pathname);
  }
  $("token").value = localStorage.getItem("olympiad.captain") || "";
  const T = await currentTournament();
  const say = (kind, text) => { $("message").hidden = false; $("message").className = kind; $("message").textContent = text; };
  if (!T) { say("error", "No tournament is served yet."); return; }
  const base = `/api/tournaments/${encodeURIComponent(T.tournament_id)}`;
  let view = null, team = null;

  async function refresh() {
    view = await Api.get(`${base}/arbiter`);
    team = view.teams.find((t) => t.team_id === teamId);
    if (!team) { say("error", `Team ${teamId || "(none)"} is not registered: open the link the chief arbiter gave you.`); return; }
    $("title").textContent = `${team.name}: team captain (${view.name})`;
    $("lineup-title").textContent = `Line-up of ${team.name} for round ${view.next_round ?? "—"}`;
    $("captain-boards").tBodies[0].replaceChildren(...Array.from({ length: view.boards }, (_, i) =>
      el("tr", { dataset: { board: i + 1 } }, el("td", { class: "num" }, i + 1),
        el("td", {}, el("select", { class: "player", "aria-label": `board ${i + 1}` },
          team.players.map((p) => el("option", { value: p.board_order, selected: team.lineup[i] === p.board_order },
            `${p.board_order}. ${p.name}${p.rating ? " " + p.rating : ""}${p.board_order > view.boards ? " (reserve)" : ""}`)))))));
    $("submitted").textContent = team.lineup_submitted && view.prepare_round === view.next_round
      ? `Submitted for round ${view.next_round}: boards ${team.lineup.join(" ")}.` : "No line-up submitted for this round yet.";
    $("lineup-form").hidden = false;
  }

  $("lineup-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const boards = [...document.querySelectorAll("#captain-boards select.player")].map((s) => Number(s.value));
    const r = await Api.post(`${base}/commands`, { command: "SubmitLineup", round: view.next_round, team_id: teamId, boards },
      $("token").value.trim());
    if (r.ok) say("ok", `Line-up of round ${view.next_round}: ${r.body.message}`);
    else say("error", refusal(r, "Line-up"));
    await refresh();
  });
  await refresh();
})();
