// The scoreboard: the server renders standings and pairings into the page; this script keeps them
// live. On each standings-stream message (server-sent events) it fetches /scoreboard: the last
// complete round's standings, or provisional ones with the decided matches of the round in
// progress ("3 of 103 matches"), never moved by an unplayed match. Changed cells are marked;
// the table after each earlier round is one click away, titled official, complete or provisional; clicking two teams asks the API
// which criterion separates them. What if: a pending match of the round in play can be set to a
// score (its select in the pairings); the page asks /whatif (a read: nothing is recorded, and the
// settings live in this page only, so another browser sees nothing of them) and shows the
// hypothetical table, the round with the set matches marked and, once every match has a result,
// the engine's pairing of the next round; "reset" goes back to the live table.
"use strict";

(async function scoreboard() {
  const T = await currentTournament();
  if (!T) { document.getElementById("title").textContent = "No tournament is served"; return; }
  const tid = T.tournament_id;
  const base = `/api/tournaments/${encodeURIComponent(tid)}`;
  const columns = T.columns; // Rk, SNo, Team, Fed, Games, + = -, MP, the tie-breaks: the CLI's and the API's order
  const $ = (id) => document.getElementById(id);

  let liveRound = T.current_round;
  // The page as served: the live scoreboard, or ?round=N (the official standings after round N).
  let viewRound = document.body.dataset.live === "0" ? Number(document.body.dataset.round) : null;
  let board = null;            // the last /scoreboard answer (live view)
  let lastSeq = -1;
  let pairings = new Map();    // table -> match of the round shown
  let selected = [];           // team ids clicked, at most two
  const whatIf = new Map();    // table -> hypothetical score ("2.5-1.5") of a pending match: this page only
  let hypo = null;             // the last /whatif answer shown
  const shownRound = () => viewRound === null ? (board ? board.round : liveRound) : viewRound;
  const standingsRound = () => viewRound === null ? (board && board.provisional ? board.round : board ? board.based_on : liveRound) : viewRound;

  document.title = `${T.name}: standings`;
  $("title").textContent = T.name;
  $("order").textContent = `Order: MP, ${T.tiebreaks.join(", ")} (${T.profile}).`;

  // One click to the official table of each closed round, or back to the live one.
  function fillRoundLinks(closed) {
    const link = (r, text) => el("a", { href: r === null ? "/" : `/?round=${r}`, dataset: { round: r === null ? "live" : r },
      class: r === viewRound ? "current" : null,
      onclick: (e) => { e.preventDefault(); history.pushState(null, "", r === null ? "/" : `/?round=${r}`); show(r); } }, text);
    $("rounds").replaceChildren(link(null, "live"), closed.length ? " · after round " : "",
      ...closed.flatMap((r) => [link(r, String(r)), " "]));
  }

  function renderHead() {
    $("standings").tHead.replaceChildren(el("tr", {}, columns.map((c) =>
      el("th", { class: ["name", "federation"].includes(c.key) ? null : "num", dataset: { key: c.key } }, c.label))));
  }

  const FIXED = { rank: "rk", pairing_number: "sno", games: "games", won: "won", drawn: "drawn", lost: "lost", mp: "mp",
                  decided_by: "by" };
  function value(r, key) {
    // "decided by" comes with the rows, REST and stream alike (projections.standings.decided_by)
    if (key === "decided_by") return r.decided_by === "equal on every key, shared place" ? "= shared" : r.decided_by || "";
    // a PAB is shown in the column of what it counts as, by the MP it scores (r.byes, display only)
    if (key in r.record) return r.record[key] + (r.byes && r.byes.rounds.length && r.byes.counted_as === key ? ` +${r.byes.rounds.length} PAB` : "");
    if (key === "games") return r.record.won + r.record.drawn + r.record.lost;
    if (key === "GP" && !(key in r.tiebreaks)) return r.gp;
    return key in r ? r[key] : r.tiebreaks[key];
  }

  // One <tr> per team, made once and updated in place: a live update touches only the cells whose
  // value changed, and moves rows only when the order changed (cheap to restyle and paint).
  const rowEls = new Map();
  function rowFor(r) {
    if (!rowEls.has(r.team_id)) {
      const cells = {};
      const tds = columns.map((c) => {
        if (c.key === "name") return el("td", { class: "team" }, r.name, el("a", { class: "team-link", title: "team page",
          onclick: (e) => e.stopPropagation(), href: `/teams/${encodeURIComponent(r.team_id)}?t=${encodeURIComponent(tid)}` }, "↗"));
        if (c.key === "federation") return el("td", { class: "fed" }, r.federation);
        const cls = c.key in FIXED ? "num " + FIXED[c.key] : c.key === "GP" ? "num gp" : "num tb";
        cells[c.key] = el("td", { class: cls, dataset: c.key in FIXED ? {} : { tb: c.key } }, "");
        return cells[c.key];
      });
      const row = { cells, tr: el("tr", { dataset: { team: r.team_id }, onclick: () => pick(r.team_id) }, tds) };
      rowEls.set(r.team_id, row);
    }
    return rowEls.get(r.team_id);
  }

  // Show `rows`; with `prev` (the rows before a live update) mark every value that changed.
  function renderStandings(rows, prev, title) {
    const before = new Map((prev || []).map((r) => [r.team_id, r]));
    for (const td of $("standings").querySelectorAll("td.changed")) td.classList.remove("changed");
    const body = $("standings").tBodies[0];
    if (body.children.length && !body.children[0].dataset.live) body.replaceChildren(); // the server's rows: take over
    let shownRank = null;
    rows.forEach((r, i) => {
      const row = rowFor(r);
      row.tr.dataset.live = "1";
      const p = before.get(r.team_id);
      row.tr.dataset.rank = r.rank;
      row.tr.classList.toggle("selected", selected.includes(r.team_id));
      for (const c of columns) {
        const td = row.cells[c.key];
        if (!td) continue;
        const v = value(r, c.key);
        if (c.key === "rank") {
          const rankText = r.rank === shownRank ? "" : String(r.rank); // a shared place prints once
          shownRank = r.rank;
          const moved = p && p.rank !== r.rank ? (r.rank < p.rank ? "▲" : "▼") + Math.abs(p.rank - r.rank) : "";
          if (td.dataset.value !== String(r.rank) || td.dataset.shown !== rankText + moved) {
            td.replaceChildren(rankText, moved ? el("span", { class: "move " + (moved[0] === "▲" ? "up" : "down") }, moved) : "");
            td.dataset.value = r.rank;
            td.dataset.shown = rankText + moved;
          }
          if (moved) td.classList.add("changed");
          continue;
        }
        if (td.dataset.value !== String(v)) { td.dataset.value = v; td.textContent = c.key in FIXED ? v : pts(v); }
        if (p && String(value(p, c.key)) !== String(v)) td.classList.add("changed");
      }
      if (body.children[i] !== row.tr) body.insertBefore(row.tr, body.children[i] || null);
    });
    while (body.children.length > rows.length) body.lastChild.remove();
    $("standings-title").textContent = title;
    $("standings-title").dataset.provisional = viewRound === null && board && board.provisional ? "1" : "0";
  }

  async function loadBoard() {
    board = await Api.get(`${base}/scoreboard`);
    liveRound = board.round;
    return board;
  }

  function matchRow(m, prev) {
    const before = new Map((prev ? prev.boards : []).map((b) => [b.board, b.result]));
    const changedScore = prev && (prev.home_gp !== m.home_gp || prev.away_gp !== m.away_gp);
    const settable = viewRound === null && m.round === liveRound && (whatIf.has(m.table) || !m.complete);
    return el("tr", { dataset: { table: m.table }, class: m.hypothetical ? "hypothetical" : null },
      el("td", { class: "num" }, m.table),
      el("td", { class: "num" }, m.home.pairing_number),
      el("td", {}, m.home.name),
      el("td", { class: "score" + (changedScore ? " changed" : ""), dataset: { home: m.home_gp, away: m.away_gp } },
        m.boards_in ? `${pts(m.home_gp)} : ${pts(m.away_gp)}` : "–"),
      el("td", {}, m.away.name),
      el("td", { class: "num" }, m.away.pairing_number),
      el("td", { class: "boards" }, m.boards.map((b) => el("span", {
        class: [b.result ? "" : "none", prev && before.get(b.board) !== b.result ? "changed" : "",
                b.hypothetical ? "hypothetical" : ""].join(" ").trim() || null,
        title: `board ${b.board}: ${b.white} White, ${b.black} Black` + (b.hypothetical ? " (hypothetical)" : ""),
        dataset: { board: b.board, result: b.result || "" },
      }, b.result ? code(b.result) : "·"))),
      el("td", { class: "whatif" }, settable ? whatIfSelect(m) : ""));
  }

  // ---------------------------------------------------------------- what if (this page only)
  function whatIfSelect(m) {
    const n = m.boards.length;
    const scores = [];
    for (let h = 2 * n; h >= 0; h--) scores.push(`${h / 2}-${n - h / 2}`);
    return el("select", { dataset: { table: m.table }, title: "what if this match ended so (only in this browser; nothing is recorded)",
      onchange: (e) => { if (e.target.value) whatIf.set(m.table, e.target.value); else whatIf.delete(m.table); applyWhatIf(); } },
      el("option", { value: "" }, "—"),
      scores.map((sc) => el("option", { value: sc, selected: whatIf.get(m.table) === sc }, sc.split("-").map(pts).join("-"))));
  }

  function clearWhatIfMarks() {
    hypo = null;
    $("whatif").hidden = true;
    $("next-pairing").hidden = true;
    $("standings").classList.remove("hypothetical");
    $("standings-title").dataset.hypothetical = "0";
  }

  async function applyWhatIf() {
    if (!whatIf.size) return resetWhatIf();
    const query = [...whatIf].map(([t, sc]) => "set=" + encodeURIComponent(`${liveRound}/${t}=${sc}`)).join("&");
    let w;
    try { w = await Api.get(`${base}/whatif?${query}`); }
    catch (e) { $("whatif").hidden = false; $("whatif-text").textContent = `What if refused: ${e.message}`; return; }
    hypo = w;
    renderStandings(w.standings.rows, board ? board.rows : null, w.standings.label + " (hypothetical)");
    $("standings").classList.add("hypothetical");
    $("standings-title").dataset.hypothetical = "1";
    $("whatif").hidden = false;
    $("whatif-text").textContent = `Hypothetical: ${w.settings.length} of ${w.standings.tables} matches set in this browser; ` +
      "nothing is recorded and nobody else sees it.";
    $("pairings").tBodies[0].replaceChildren(...w.round_in_play.tables.map((m) => matchRow(m, pairings.get(m.table))));
    const box = $("next-pairing");
    const p = w.next_pairing;
    if (!p && !w.pairing_refused) { box.hidden = true; return; }
    $("next-pairing-title").textContent = p ? `What if: round ${p.round} pairing (the engine's proposal, hypothetical)`
      : `What if: the next round cannot be paired: ${w.pairing_refused}`;
    box.querySelector("tbody").replaceChildren(...(p ? p.tables : []).map((t) => el("tr",
      { dataset: { table: t.table, home: t.home.team_id, away: t.away.team_id } },
      el("td", { class: "num" }, t.table), el("td", {}, t.home.name), el("td", { class: "num" }, t.home.mp),
      el("td", { class: "num" }, t.away.mp), el("td", {}, t.away.name))));
    box.hidden = false;
  }

  async function resetWhatIf() {
    whatIf.clear();
    clearWhatIfMarks();
    if (viewRound === null && board) renderStandings(board.rows, null, board.label);
    await loadPairings(shownRound());
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
    whatIf.clear();
    clearWhatIfMarks();
    if (round === null) {
      await loadBoard();
      renderStandings(board.rows, null, board.label);
      fillRoundLinks(board.closed_rounds);
    } else {
      const st = await Api.get(`${base}/standings/${round}`);
      renderStandings(st.rows, null, st.title);
      if (board) fillRoundLinks(board.closed_rounds);
    }
    await loadPairings(shownRound());
    if (selected.length === 2) await compare();
  }

  async function onUpdate(u) {
    if (u.seq <= lastSeq) return; // already shown (the snapshot of a new connection can repeat the last update)
    const first = lastSeq === -1 && board === null;
    lastSeq = u.seq;
    // What the page shows, for monitoring and tests: `at` received, `shownAt` painted (ms since epoch).
    const shown = window.lastUpdate = { seq: u.seq, at: Date.now(), shownAt: null, digest: u.digest, caused_by: u.caused_by };
    const newRound = u.round !== liveRound;
    if (viewRound !== null) { // an official table is shown: it does not change; keep the links current
      if (newRound) { await loadBoard(); fillRoundLinks(board.closed_rounds); }
      return;
    }
    const prev = board ? board.rows : null;
    await loadBoard();  // the table the server computes: decided matches only
    if (newRound) whatIf.clear();
    for (const m of u.matches) if (m.complete && m.round === liveRound) whatIf.delete(m.table); // decided for real
    if (hypo && !whatIf.size) { clearWhatIfMarks(); if (!newRound) await loadPairings(board.round); }
    fillRoundLinks(board.closed_rounds);
    if (whatIf.size) { // the what-if again, over the new real state
      for (const m of u.matches) if (m.round === liveRound) pairings.set(m.table, m);
      await applyWhatIf();
    } else {
      renderStandings(board.rows, first ? null : prev, board.label);
      if (newRound) { await loadPairings(board.round); }
      else {
        for (const mark of $("pairings").querySelectorAll(".changed")) mark.classList.remove("changed");
        for (const m of u.matches) {
          if (m.round !== shownRound()) continue;
          const row = $("pairings").querySelector(`tr[data-table="${m.table}"]`);
          const fresh = matchRow(m, pairings.get(m.table));
          if (row) row.replaceWith(fresh);
          pairings.set(m.table, m);
        }
      }
    }
    if (!first && u.matches.length) {
      $("last-update").hidden = false;
      $("last-update").textContent = `Updated ${new Date().toLocaleTimeString()}: ` + u.matches.map((m) =>
        `table ${m.table} ${m.home.name} ${pts(m.home_gp)} : ${pts(m.away_gp)} ${m.away.name}` +
        (m.complete ? "" : ` (${m.boards_in} of ${m.boards.length} boards)`)).join("; ");
    }
    if (selected.length === 2 && !first) compare();
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
    try { c = await Api.get(`${base}/standings/${standingsRound()}/compare?a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)}`); }
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
  $("whatif-reset").addEventListener("click", () => resetWhatIf());
  window.addEventListener("popstate", () => {
    const r = new URLSearchParams(location.search).get("round");
    show(r === null ? null : Number(r));
  });
  await show(viewRound);
  const source = new EventSource(`${base}/stream`);
  // One update at a time, in stream order: a slow /scoreboard answer never paints over a newer one.
  let updating = Promise.resolve();
  source.addEventListener("standings", (e) => {
    const u = JSON.parse(e.data);
    updating = updating.then(() => onUpdate(u)).catch((err) => console.error(err));
  });
  source.onopen = () => { // (re)connected: the first message is the server's current standings
    lastSeq = -1;
    loadPairings(shownRound()); // results may have come in while disconnected
    $("live").className = "live on";
    $("live").textContent = "live";
  };
  source.onerror = () => { $("live").className = "live"; $("live").textContent = "reconnecting"; };
})();
