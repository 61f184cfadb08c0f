// The scoreboard: standings (Rk, SNo, Team, MP, tie-breaks, GP) and the round's pairings with
// board results, kept live by the standings stream (server-sent events); changed cells are
// marked; clicking two teams asks the API which criterion separates them.
"use strict";

(async function scoreboard() {
  const T = await currentTournament();
  if (!T) { document.getElementById("title").textContent = "No tournament is served"; return; }
  const tid = T.tournament_id;
  const base = `/api/tournaments/${encodeURIComponent(tid)}`;
  const tbCols = T.tiebreaks.filter((t) => t !== "GP"); // GP is printed last, as chess-results does
  const $ = (id) => document.getElementById(id);

  let liveRound = T.current_round;
  let viewRound = liveRound;
  let liveRows = null;        // rows of the last stream message
  let lastSeq = -1;
  let pairings = new Map();    // table -> match of the round shown
  let selected = [];           // team ids clicked, at most two

  document.title = `${T.name}: standings`;
  $("title").textContent = T.name;
  $("order").textContent = `Order: MP, ${T.tiebreaks.join(", ")} (${T.profile}).`;

  function fillRoundSelect() {
    const sel = $("round");
    sel.replaceChildren(...Array.from({ length: liveRound }, (_, i) => i + 1).map((r) =>
      el("option", { value: r, selected: r === viewRound }, r === liveRound ? `${r} (live)` : String(r))));
  }

  function renderHead() {
    $("standings").tHead.replaceChildren(el("tr", {},
      el("th", { class: "num" }, "Rk"), el("th", { class: "num" }, "SNo"), el("th", {}, "Team"),
      el("th", { class: "num" }, "MP"), tbCols.map((t) => el("th", { class: "num" }, t)),
      el("th", { class: "num" }, "GP"), el("th", { title: "the key that puts the row below the one above" }, "Decided by")));
  }

  // One <tr> per team, made once and updated in place: a live update touches only the cells whose
  // value changed, and moves rows only when the order changed (cheap to restyle and paint).
  const rowEls = new Map();
  function rowFor(r) {
    if (!rowEls.has(r.team_id)) {
      const cell = (cls, dataset) => el("td", { class: cls, dataset }, "");
      const row = {
        rk: cell("num rk"), mp: cell("num mp"), gp: cell("num gp"), by: cell("by"),
        tb: Object.fromEntries(tbCols.map((t) => [t, cell("num tb", { tb: t })])),
      };
      row.tr = el("tr", { dataset: { team: r.team_id }, onclick: () => pick(r.team_id) },
        row.rk, el("td", { class: "num sno" }, r.pairing_number),
        el("td", { class: "team" }, r.name, el("a", { class: "team-link", title: "team page", onclick: (e) => e.stopPropagation(),
          href: `/teams/${encodeURIComponent(r.team_id)}?t=${encodeURIComponent(tid)}` }, "↗")),
        row.mp, tbCols.map((t) => row.tb[t]), row.gp, row.by);
      rowEls.set(r.team_id, row);
    }
    return rowEls.get(r.team_id);
  }

  // Show `rows`; with `prev` (the rows before a live update) mark every value that changed.
  function renderStandings(rows, prev) {
    const before = new Map((prev || []).map((r) => [r.team_id, r]));
    for (const td of $("standings").querySelectorAll("td.changed")) td.classList.remove("changed");
    const set = (td, value, text, p, old) => {
      if (td.dataset.value !== String(value)) { td.dataset.value = value; td.firstChild.nodeValue = text; }
      if (p && String(old) !== String(value)) td.classList.add("changed");
    };
    const body = $("standings").tBodies[0];
    let shownRank = null;
    rows.forEach((r, i) => {
      const row = rowFor(r);
      const p = before.get(r.team_id);
      row.tr.dataset.rank = r.rank;
      row.tr.classList.toggle("selected", selected.includes(r.team_id));
      const rankText = r.rank === shownRank ? "" : String(r.rank); // a shared place prints once
      shownRank = r.rank;
      const moved = p && p.rank !== r.rank ? (r.rank < p.rank ? "▲" : "▼") + Math.abs(p.rank - r.rank) : "";
      if (row.rk.dataset.value !== String(r.rank) || row.rk.dataset.shown !== rankText + moved) {
        row.rk.replaceChildren(rankText, moved ? el("span", { class: "move " + (moved[0] === "▲" ? "up" : "down") }, moved) : "");
        row.rk.dataset.value = r.rank;
        row.rk.dataset.shown = rankText + moved;
      }
      if (moved) row.rk.classList.add("changed");
      set(row.mp, r.mp, r.mp, p, p && p.mp);
      for (const t of tbCols) set(row.tb[t], r.tiebreaks[t], pts(r.tiebreaks[t]), p, p && p.tiebreaks[t]);
      set(row.gp, r.gp, pts(r.gp), p, p && p.gp);
      // "decided by" comes with the rows, REST and stream alike (projections.standings.decided_by)
      if ("decided_by" in r) set(row.by, r.decided_by || "", r.decided_by === "equal on every key, shared place" ? "= shared" : r.decided_by || "", null);
      if (body.children[i] !== row.tr) body.insertBefore(row.tr, body.children[i] || null);
    });
    while (body.children.length > rows.length) body.lastChild.remove();
    $("standings-title").textContent = `Standings after round ${viewRound}` + (viewRound === liveRound ? " (live)" : "");
  }

  function matchRow(m, prev) {
    const before = new Map((prev ? prev.boards : []).map((b) => [b.board, b.result]));
    const changedScore = prev && (prev.home_gp !== m.home_gp || prev.away_gp !== m.away_gp);
    return el("tr", { dataset: { table: m.table } },
      el("td", { class: "num" }, m.table),
      el("td", { class: "num" }, m.home.pairing_number),
      el("td", {}, m.home.name),
      el("td", { class: "score" + (changedScore ? " changed" : ""), dataset: { home: m.home_gp, away: m.away_gp } },
        m.boards_in ? `${pts(m.home_gp)} : ${pts(m.away_gp)}` : "–"),
      el("td", {}, m.away.name),
      el("td", { class: "num" }, m.away.pairing_number),
      el("td", { class: "boards" }, m.boards.map((b) => el("span", {
        class: [b.result ? "" : "none", prev && before.get(b.board) !== b.result ? "changed" : ""].join(" ").trim() || null,
        title: `board ${b.board}: ${b.white} White, ${b.black} Black`, dataset: { board: b.board, result: b.result || "" },
      }, b.result ? code(b.result) : "·"))));
  }

  async function loadPairings(round) {
    const p = await Api.get(`${base}/rounds/${round}/pairings`);
    pairings = new Map(p.tables.map((m) => [m.table, m]));
    $("pairings").tBodies[0].replaceChildren(...p.tables.map((m) => matchRow(m, null)));
    const extra = [p.bye ? `bye: ${p.bye.name}` : "", p.absent.length ? `absent: ${p.absent.map((a) => a.name).join(", ")}` : ""]
      .filter(Boolean).join("; ");
    $("pairings-title").textContent = `Round ${round} pairings` + (extra ? ` (${extra})` : "");
  }

  async function show(round) {
    viewRound = round;
    fillRoundSelect();
    if (round === liveRound && liveRows) renderStandings(liveRows, null);
    else renderStandings((await Api.get(`${base}/standings/${round}`)).rows, null);
    await loadPairings(round);
    if (selected.length === 2) await compare();
  }

  function onUpdate(u) {
    if (u.seq <= lastSeq) return; // already shown (the snapshot of a new connection can repeat the last update)
    const first = liveRows === null;
    const prev = liveRows;
    lastSeq = u.seq;
    liveRows = u.rows;
    // What the page shows, for monitoring and tests: `at` received, `shownAt` painted (ms since epoch).
    window.lastUpdate = { seq: u.seq, at: Date.now(), shownAt: null, digest: u.digest, caused_by: u.caused_by };
    if (u.round !== liveRound) {           // a new round was paired: follow it
      const following = viewRound === liveRound;
      liveRound = u.round;
      if (following) { show(liveRound); return; }
      fillRoundSelect();
    }
    if (viewRound !== liveRound) return;
    renderStandings(u.rows, first ? null : prev);
    for (const mark of $("pairings").querySelectorAll(".changed")) mark.classList.remove("changed");
    for (const m of u.matches) {
      if (m.round !== viewRound) continue;
      const row = $("pairings").querySelector(`tr[data-table="${m.table}"]`);
      const fresh = matchRow(m, pairings.get(m.table));
      if (row) row.replaceWith(fresh);
      pairings.set(m.table, m);
    }
    if (!first && u.matches.length) {
      $("last-update").hidden = false;
      $("last-update").textContent = `Updated ${new Date().toLocaleTimeString()}: ` + u.matches.map((m) =>
        `table ${m.table} ${m.home.name} ${pts(m.home_gp)} : ${pts(m.away_gp)} ${m.away.name}` +
        (m.complete ? "" : ` (${m.boards_in} of ${m.boards.length} boards)`)).join("; ");
    }
    if (selected.length === 2 && !first) compare();
    const shown = window.lastUpdate;
    requestAnimationFrame(() => setTimeout(() => { shown.shownAt = Date.now(); })); // after the frame is painted
  }

  // ---------------------------------------------------------------- compare two teams
  function pick(team) {
    select(selected.includes(team) ? selected.filter((t) => t !== team) : [...selected, team].slice(-2));
  }

  function select(teams) {
    selected = teams;
    for (const tr of $("standings").tBodies[0].rows) tr.classList.toggle("selected", selected.includes(tr.dataset.team));
    if (selected.length === 2) compare(); else $("compare").hidden = true;
  }

  async function compare() {
    const [a, b] = selected;
    let c;
    try { c = await Api.get(`${base}/standings/${viewRound}/compare?a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)}`); }
    catch (e) { $("compare").replaceChildren(el("p", { class: "why" }, e.message)); $("compare").hidden = false; return; }
    const name = (t) => $("standings").querySelector(`tr[data-team="${t}"] td.team`)?.firstChild.textContent || t;
    const steps = el("table", { class: "cr", id: "compare-steps" },
      el("thead", {}, el("tr", {}, el("th", {}, "criterion"), el("th", { class: "num" }, name(a)), el("th", { class: "num" }, name(b)))),
      el("tbody", {}, c.steps.map((s) => el("tr", { class: s.equal ? null : "decisive", dataset: { criterion: s.criterion } },
        el("td", {}, s.criterion), el("td", { class: "num" }, pts(s.a)), el("td", { class: "num" }, pts(s.b))))));
    const terms = Object.entries(c.terms).map(([team, list]) => el("table", { class: "cr terms", dataset: { team } },
      el("thead", {}, el("tr", {}, el("th", { colspan: 5 }, `${name(team)}: ${c.decided_by} by round`)),
        el("tr", {}, el("th", { class: "num" }, "Rd"), el("th", {}, "Opponent"), el("th", { class: "num" }, "opp. MP"),
          el("th", { class: "num" }, "GP"), el("th", { class: "num" }, "term"))),
      el("tbody", {}, list.map((t) => el("tr", {},
        el("td", { class: "num" }, t.round), el("td", {}, t.opponent ? name(t.opponent) : "(no opponent)"),
        el("td", { class: "num" }, t.opponent_mp), el("td", { class: "num" }, pts(t.own_gp)),
        el("td", { class: "num" + (t.cut ? " cut" : ""), title: t.cut ? "left out by cut-1" : null }, pts(t.term)))))));
    $("compare").replaceChildren(
      el("button", { onclick: () => select([]) }, "close"),
      el("p", { class: "why", id: "compare-why", dataset: { decidedBy: c.decided_by, ahead: c.ahead } },
        `After round ${c.round}: ${name(c.ahead)} is ahead. ${c.explanation}`),
      steps, ...terms);
    $("compare").hidden = false;
  }

  // ---------------------------------------------------------------- start
  renderHead();
  $("round").addEventListener("change", (e) => show(Number(e.target.value)));
  await show(liveRound);
  const source = new EventSource(`${base}/stream`);
  source.addEventListener("standings", (e) => onUpdate(JSON.parse(e.data)));
  source.onopen = () => { // (re)connected: the first message is the server's current standings
    lastSeq = -1;
    if (liveRows !== null) loadPairings(viewRound); // results may have come in while disconnected
    $("live").className = "live on";
    $("live").textContent = "live";
  };
  source.onerror = () => { $("live").className = "live"; $("live").textContent = "reconnecting"; };
})();
