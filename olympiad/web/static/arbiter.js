// The chief arbiter's page: create the tournament, import teams, line-ups, pair (with the
// engine's explanation), amend (the checker's report before publishing), publish, follow the
// results table by table, forfeits, corrections, close. Every write is one command posted to the
// API; every refusal is shown in words with its field and rule. No rule lives here.
"use strict";

(async function arbiter() {
  const $ = (id) => document.getElementById(id);
  const hash = new URLSearchParams(location.hash.slice(1));
  if (hash.has("token")) { localStorage.setItem("olympiad.chief", hash.get("token")); history.replaceState(null, "", location.pathname); }
  $("token").value = localStorage.getItem("olympiad.chief") || "";
  const token = () => $("token").value.trim();
  let tid = null, view = null;

  function say(kind, text) {
    $("message").hidden = false;
    $("message").className = kind;
    $("message").textContent = text;
  }
  // {ok, status, body} of Api.post -> true, or the refusal shown in words.
  function verdict(r, what) {
    if (r.ok) { say("ok", `${what}: ${r.body.message || "done"}`); return true; }
    say("error", refusal(r, what));
    return false;
  }
  const command = (body) => Api.post(`/api/tournaments/${encodeURIComponent(tid)}/commands`, body, token());
  async function run(what, body) { const r = await command(body); const ok = verdict(r, what); await refresh(); return ok; }

  // ------------------------------------------------------------------ create
  const setup = await Api.get("/api/setup");
  tid = setup.tournament_id;
  if (!tid) {
    $("create").hidden = false;
    $("c-name").value = setup.name || "";
    $("c-profile").replaceChildren(...setup.profiles.map((p) => el("option", { value: p.name }, p.name)));
    const about = () => {
      const p = setup.profiles.find((x) => x.name === $("c-profile").value) || {};
      $("c-profile-about").textContent = `${p.rounds} rounds. ${p.description || ""}`;
      $("c-rounds-hint").textContent = `empty: the profile's ${p.rounds} rounds`;
    };
    $("c-profile").addEventListener("change", about);
    $("c-profile").value = setup.profile || "olympiad-2022";
    // serve --new NAME --profile P: the server creates the event with P (another is refused), so the page shows it fixed.
    $("c-profile").disabled = Boolean(setup.profile);
    about();
    $("c-id").value = (setup.name || "").toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
  }
  $("c-submit").addEventListener("click", async () => {
    const body = { command: "CreateTournament", tournament_id: $("c-id").value.trim(), name: $("c-name").value.trim() };
    if (!setup.profile) body.profile = $("c-profile").value;  // else the server's profile
    if ($("c-rounds").value) body.rounds = Number($("c-rounds").value);
    if ($("c-deadline").value.trim()) body.nomination_deadline = $("c-deadline").value.trim();
    const r = await Api.post("/api/tournaments", body, token());
    if (verdict(r, "Create")) { tid = body.tournament_id; $("create").hidden = true; await refresh(); }
  });

  // ------------------------------------------------------------------ teams
  $("import").addEventListener("click", async () => {
    const file = $("import-file").files[0];
    if (!file) { say("error", "Choose a CSV or TRF file first. Nothing was written."); return; }
    const r = await Api.post(`/api/tournaments/${encodeURIComponent(tid)}/teams/import`, { text: await file.text(), filename: file.name }, token());
    verdict(r, `Import of ${file.name}`);
    await refresh();
  });
  $("ranks").addEventListener("click", () => run("Starting ranks", { command: "SetStartingRanks" }));

  // Roster changes, late entries, absences, withdrawals: labelled forms, one command each.
  // The players' table: one row per board order (1-4 the boards, then the reserve).
  function playersTable(id, players) {
    const rows = (view.boards || 4) + 1;
    $(id).replaceChildren(el("thead", {}, el("tr", {}, ["Board order", "Name", "Title", "Rating", "FIDE id"].map((h) => el("th", {}, h)))),
      el("tbody", {}, Array.from({ length: rows }, (_, i) => {
        const p = (players || []).find((x) => x.board_order === i + 1) || {};
        return el("tr", { dataset: { order: i + 1 } }, el("td", {}, i + 1 > view.boards ? `${i + 1} (reserve)` : String(i + 1)),
          el("td", {}, el("input", { class: "p-name", size: 24, value: p.name || "", "aria-label": `name, board order ${i + 1}` })),
          el("td", {}, el("input", { class: "p-title", size: 3, value: p.title || "", "aria-label": `title, board order ${i + 1}` })),
          el("td", {}, el("input", { class: "p-rating", size: 5, value: p.rating ?? "", "aria-label": `rating, board order ${i + 1}` })),
          el("td", {}, el("input", { class: "p-fide", size: 9, value: p.fide_id ?? "", "aria-label": `FIDE id, board order ${i + 1}` })));
      })));
  }
  // The rows with a name, as Player fields; a number typed is sent as a number, anything else as
  // typed, so that the server names what is wrong with it.
  const asNumber = (v) => (/^\d+$/.test(v) ? Number(v) : v);
  function playersOf(id) {
    return [...$(id).querySelectorAll("tbody tr")].filter((tr) => tr.querySelector(".p-name").value.trim()).map((tr) => {
      const p = { board_order: Number(tr.dataset.order), name: tr.querySelector(".p-name").value.trim() };
      const title = tr.querySelector(".p-title").value.trim(), rating = tr.querySelector(".p-rating").value.trim();
      const fide = tr.querySelector(".p-fide").value.trim();
      if (title) p.title = title;
      if (rating) p.rating = asNumber(rating);
      if (fide) p.fide_id = fide;
      return p;
    });
  }
  const team = (id) => view.teams.find((t) => t.team_id === id);
  const optional = (id) => ($(id).value.trim() ? Number($(id).value) : undefined);
  function onSubmit(id, action) { $(id).addEventListener("submit", (e) => { e.preventDefault(); action(); }); }
  $("r-team").addEventListener("change", () => playersTable("r-players", (team($("r-team").value) || {}).players));
  onSubmit("form-roster", () => run(`Roster of ${$("r-team").value}`, { command: "ChangeRoster", team_id: $("r-team").value,
    players: playersOf("r-players"), reason: $("r-reason").value.trim() }));
  onSubmit("form-late", () => run(`Registration of ${$("l-id").value.trim()}`, { command: "RegisterTeam",
    team: { team_id: $("l-id").value.trim(), name: $("l-name").value.trim(), federation: $("l-fed").value.trim(), players: playersOf("l-players") },
    from_round: optional("l-round") }));
  onSubmit("form-absence", () => run(`Absence of ${$("a-team").value}`, { command: "AnnounceAbsence", team_id: $("a-team").value,
    round: optional("a-round"), reason: $("a-reason").value.trim() }));
  onSubmit("form-withdraw", () => run(`Withdrawal of ${$("w-team").value}`, { command: "WithdrawTeam", team_id: $("w-team").value,
    from_round: optional("w-round"), reason: $("w-reason").value.trim() }));

  // The forms' team lists and the rounds they default to, kept when the arbiter has chosen.
  let shownFor = null, teamsFor = null;
  function renderForms() {
    const teamsKey = JSON.stringify(view.teams.map((t) => [t.team_id, t.name]));
    if (teamsKey !== teamsFor) { // rebuilt only when the teams change: an open list stays open
      teamsFor = teamsKey;
      for (const sel of document.querySelectorAll("select.team-choice")) {
        const keep = sel.value;
        sel.replaceChildren(...view.teams.map((t) => el("option", { value: t.team_id }, `${t.name} (${t.team_id})`)));
        if (keep && team(keep)) sel.value = keep;
      }
    }
    const key = `${view.prepare_round}/${view.last_round}/${view.teams.length}`;
    if (key === shownFor) return;
    shownFor = key;
    playersTable("r-players", (team($("r-team").value) || {}).players);
    if (!$("l-players").rows.length) playersTable("l-players", []);
    for (const id of ["l-round", "a-round", "lu-round"]) $(id).value = view.next_round || "";
    for (const id of ["f-round", "x-round"]) $(id).value = view.last_round || "";
  }

  function renderTeams() {
    $("deadline").textContent = view.nomination_deadline
      ? `Nomination deadline ${view.nomination_deadline}; rosters are fixed after it${view.rosters_open ? "" : " (round 1 is published: fixed)"}.`
      : `Rosters are fixed when round 1 is published${view.rosters_open ? "" : " (now fixed)"}.`;
    $("teams").tBodies[0].replaceChildren(...view.teams.map((t) => el("tr", { dataset: { team: t.team_id } },
      el("td", { class: "num" }, t.pairing_number), el("td", {}, `${t.name} (${t.team_id})`), el("td", {}, t.federation),
      el("td", {}, t.players.map((p) => `${p.board_order}. ${p.name}${p.rating ? " " + p.rating : ""}`).join(" · ")),
      el("td", {}, t.withdrawn_from ? `withdrawn from round ${t.withdrawn_from}` : t.absent ? "absent" :
        t.from_round > 1 ? `late entry, from round ${t.from_round}` : "playing"))));
  }

  // ------------------------------------------------------------------ line-ups
  function renderLineups() {
    const rnd = view.prepare_round;
    $("lineup-round").textContent = rnd;
    $("lineups").tBodies[0].replaceChildren(...view.teams.map((t) => {
      const input = el("input", { class: "lineup", value: t.lineup.join(" "), "aria-label": `line-up of ${t.team_id}` });
      const name = (order) => (t.players.find((p) => p.board_order === order) || {}).name || `(no player ${order})`;
      return el("tr", { dataset: { team: t.team_id } }, el("td", {}, `${t.name} (${t.team_id})`),
        el("td", {}, input, t.lineup_submitted ? " submitted" : ""),
        el("td", { class: "names" }, t.lineup.map((o, i) => `${i + 1}. ${name(o)}`).join(" · ")),
        el("td", {}, el("button", { type: "button", class: "submit-lineup", onclick: () => {
          const round = optional("lu-round") ?? rnd;
          return run(`Line-up of ${t.team_id} for round ${round}`,
            { command: "SubmitLineup", round, team_id: t.team_id, boards: input.value.trim().split(/[\s,]+/).filter(Boolean).map(asNumber) });
        } }, "Submit")));
    }));
  }
  $("cap-issue").addEventListener("click", async () => {
    const teamId = $("cap-team").value;
    const r = await Api.post(`/api/tournaments/${encodeURIComponent(tid)}/captains`, { team_id: teamId }, token());
    if (!verdict(r, `Captain's token of ${teamId}`)) return;
    say("ok", `Captain's token of ${teamId}: issued (an earlier one of the team no longer works). Give the captain the link below.`);
    const url = `${location.origin}/captain#token=${r.body.token}&team=${encodeURIComponent(teamId)}`;
    $("cap-link").replaceChildren(el("a", { id: "cap-url", href: url, target: "_blank" }, "the captain's page (give this link to the captain)"));
  });

  // ------------------------------------------------------------------ pairing
  const rnd = () => view.next_round;
  $("pair").addEventListener("click", () => run(`Pairing of round ${rnd()}`, { command: "PairRound", round: rnd() }));
  $("explain").addEventListener("click", async () => {
    try {
      const x = await Api.get(`/api/tournaments/${encodeURIComponent(tid)}/rounds/${rnd()}/explanation`);
      $("trace").hidden = false;
      $("trace").dataset.round = x.round;
      $("trace").textContent = [`How the engine pairs round ${x.round}:`, ...x.trace].join("\n");
    } catch (e) { verdict({ ok: false, status: e.status, body: e.body || { detail: e.message } }, "Explanation"); }
  });
  $("amend").addEventListener("click", () => {
    const swaps = [];
    if ($("swap-teams").value.trim()) swaps.push({ teams: $("swap-teams").value.split(",").map((s) => s.trim()) });
    if ($("swap-tables").value.trim()) swaps.push({ tables: $("swap-tables").value.split(",").map(Number) });
    return run(`Amendment of round ${rnd()}`, { command: "AmendPairing", round: rnd(), swaps, reason: $("amend-reason").value.trim() });
  });
  $("publish").addEventListener("click", () => {
    const body = { command: "PublishRound", round: rnd() };
    if ($("override").value.trim()) body.override_reason = $("override").value.trim();
    return run(`Publication of round ${rnd()}`, body);
  });

  function renderProposal() {
    $("pair-round").textContent = view.next_round || "—";
    const p = view.proposal;
    if (!p) { $("proposal").replaceChildren(el("p", { class: "hint" }, "No pending proposal.")); $("report").replaceChildren(); return; }
    $("proposal").replaceChildren(
      el("p", {}, p.type === "PairingAmended" ? `Amended: ${p.reason}` : "The engine's proposal:"),
      el("table", { id: "proposal-tables", class: "cr" }, el("thead", {}, el("tr", {}, el("th", { class: "num" }, "Table"), el("th", {}, "Home (White on 1)"), el("th", {}, "Away"))),
        el("tbody", {}, p.tables.map((t) => el("tr", { dataset: { table: t.table } }, el("td", { class: "num" }, t.table),
          el("td", {}, `${t.home.name} (${t.home.team_id})`), el("td", {}, `${t.away.name} (${t.away.team_id})`))))),
      p.bye ? el("p", {}, `Bye (PAB): ${p.bye.name}`) : "");
    $("report").replaceChildren(p.type !== "PairingAmended" ? "" : el("div", { id: "checker" }, el("b", {}, "Pairing checker: "),
      p.report.length ? el("ul", {}, p.report.map((line) => el("li", { class: "broken" }, line))) : "no rule broken"));
  }

  // ------------------------------------------------------------------ results
  const playing = () => view.last_round;
  async function renderResults() {
    $("play-round").textContent = playing() || "— (no round is published yet)";
    for (const id of ["forfeit", "correct", "close"]) $(id).disabled = !playing();
    if (!playing()) { $("results").tBodies[0].replaceChildren(); return; }
    const p = await Api.get(`/api/tournaments/${encodeURIComponent(tid)}/rounds/${playing()}/pairings`);
    $("results").tBodies[0].replaceChildren(...p.tables.map((m) => el("tr", { dataset: { table: m.table, complete: m.complete } },
      el("td", { class: "num" }, m.table), el("td", {}, m.home.name),
      el("td", { class: "score" }, `${pts(m.home_gp)} : ${pts(m.away_gp)}`), el("td", {}, m.away.name),
      el("td", { class: "boards" }, m.boards.map((b) => el("span", { class: b.result ? "" : "none" }, b.result ? code(b.result) : "·"))))));
    const teams = p.tables.flatMap((m) => [m.home, m.away]);
    const key = JSON.stringify(teams.map((t) => t.team_id));
    if ($("f-team").dataset.key !== key) { // the poll repaints every 2 s: keep the arbiter's choice
      const keep = $("f-team").value;
      $("f-team").replaceChildren(...teams.map((t) => el("option", { value: t.team_id }, `${t.name} (${t.team_id})`)));
      if (teams.some((t) => t.team_id === keep)) $("f-team").value = keep;
      $("f-team").dataset.key = key;
    }
    $("closed").textContent = view.closed.includes(playing()) ? `Round ${playing()} is closed.` : "";
  }
  $("forfeit").addEventListener("click", () => {
    const body = { command: "RecordForfeit", round: optional("f-round"), table: optional("f-table"), forfeiting: [$("f-team").value],
      reason: $("f-reason").value, note: $("f-note").value.trim() };
    if ($("f-board").value) body.board = optional("f-board");
    return run(`Forfeit at table ${body.table}`, body);
  });
  $("correct").addEventListener("click", () => run(`Correction of round ${$("x-round").value || "?"}, table ${$("x-table").value || "?"}, board ${$("x-board").value || "?"}`,
    { command: "CorrectResult", round: optional("x-round"), table: optional("x-table"), board: optional("x-board"),
      result: $("x-result").value, reason: $("x-reason").value.trim() }));
  $("close").addEventListener("click", () => run(`Closing round ${playing()}`, { command: "CloseRound", round: playing() }));
  $("term-issue").addEventListener("click", async () => {
    const tables = $("term-tables").value.trim() ? $("term-tables").value.split(",").map(Number) : null;
    const r = await Api.post(`/api/tournaments/${encodeURIComponent(tid)}/terminals`, { terminal_id: $("term-id").value.trim(), tables }, token());
    if (!verdict(r, `Token of ${$("term-id").value}`)) return;
    say("ok", `Token of terminal ${r.body.terminal_id}: issued for ${tables ? "table " + tables.join(", ") : "every table"} ` +
      "(an earlier one of this terminal no longer works). The link below opens the entry page with it.");
    const url = `${location.origin}/entry#token=${r.body.token}&round=${playing()}&table=${(tables || [1])[0]}`;
    $("term-link").replaceChildren(el("a", { id: "term-url", href: url, target: "_blank" }, url));
  });

  async function refresh() {
    if (!tid) return;
    view = await Api.get(`/api/tournaments/${encodeURIComponent(tid)}/arbiter`);
    document.title = `${view.name}: chief arbiter`;
    $("title").textContent = `${view.name}: chief arbiter (${view.profile}, ${view.rounds} rounds)`;
    $("run").hidden = false;
    renderTeams(); renderForms(); renderLineups(); renderProposal();
    if ($("trace").dataset.round && Number($("trace").dataset.round) !== rnd()) { // the trace of another round: gone
      $("trace").hidden = true;
      $("trace").textContent = "";
      delete $("trace").dataset.round;
    }
    await renderResults();
    window.arbiterView = view;
  }
  await refresh();
  setInterval(() => { if (tid && view && view.last_round) renderResults().catch(() => {}); }, 2000); // results as terminals enter them
})();
