// The arbiter's result-entry page: open a table of a round, enter the four board results
// (forfeits with a reason), see the match score as the server folds it, submit. Changing a stored
// result becomes a correction with a reason, offered only to a token that may correct (an arbiter's,
// the chief arbiter's); a terminal picks among its own tables only. The token comes from
// #token=... or local storage.
"use strict";

(async function entry() {
  const $ = (id) => document.getElementById(id);
  const T = await currentTournament();
  if (!T) { $("title").textContent = "No tournament is served"; return; }
  const tid = T.tournament_id;
  const base = `/api/tournaments/${encodeURIComponent(tid)}`;
  const storageKey = `olympiad.token.${tid}`;
  let match = null; // the table as stored (API match view)
  let names = []; // both line-ups, board by board: White's and Black's player names

  document.title = `${T.name}: result entry`;
  $("title").textContent = `${T.name}: result entry`;
  $("token").value = localStorage.getItem(storageKey) || "";
  $("round").replaceChildren(...T.paired_rounds.map((r) => el("option", { value: r, selected: r === T.current_round }, r)));

  // #token=...&round=R&table=N, on opening and whenever the fragment changes (a terminal handed a
  // new link for its next table, without reloading the page).
  function fromFragment() {
    const hash = new URLSearchParams(location.hash.slice(1));
    if (hash.get("token")) $("token").value = hash.get("token");
    if (hash.get("round")) $("round").value = hash.get("round");
    if (hash.get("table")) $("table").value = hash.get("table");
    if (hash.has("token")) history.replaceState(null, "", location.pathname + location.search); // off the address bar
  }
  fromFragment();

  // What the token's holder may enter (GET /terminals/me): a terminal sees its tables only, and no
  // correction or forfeit controls (the server would refuse them); null while no token is known.
  let scope = null;
  async function readScope() {
    const t = $("token").value.trim();
    scope = null;
    if (t) {
      const r = await fetch(`${base}/terminals/me`, { headers: { Accept: "application/json", Authorization: "Bearer " + t } });
      if (r.ok) scope = await r.json();
    }
    const picker = $("table");
    const current = picker.value;
    let next;
    if (scope && scope.tables) {
      next = el("select", { id: "table", "aria-label": "table" },
        scope.tables.map((n) => el("option", { value: n, selected: String(n) === current }, n)));
    } else {
      next = el("input", { id: "table", class: "narrow", type: "number", min: 1, value: current || 1 });
    }
    picker.replaceWith(next);
    follow(next);
    $("scope").textContent = scope ? `${scope.terminal_id}: ${scope.tables ? "table" + (scope.tables.length > 1 ? "s " : " ") +
      scope.tables.join(", ") : "every table"}` + (scope.corrections ? "; corrections allowed" : "") : "";
  }

  // The page follows the table picked or typed: the table shown is always the one in the box.
  let pending = null;
  function follow(picker) {
    const later = () => { clearTimeout(pending); pending = setTimeout(load, 300); };
    picker.addEventListener("input", later);
    picker.addEventListener("change", later);
    picker.addEventListener("keydown", (e) => { if (e.key === "Enter") { clearTimeout(pending); load(); } });
  }

  function say(kind, text) {
    $("message").hidden = false;
    $("message").className = kind;
    $("message").textContent = text;
  }

  const teamName = (id) => (match.home.team_id === id ? match.home.name : match.away.name);

  async function load() {
    $("message").hidden = true;
    if (!$("table").value) { $("match").hidden = true; return; }
    try {
      match = await Api.get(`${base}/rounds/${$("round").value}/tables/${$("table").value}`);
      names = (await Api.get(`${base}/rounds/${match.round}/tables/${match.table}/lineups`)).boards;
    } catch (e) {
      $("match").hidden = true;
      say("error", e.message);
      return;
    }
    render();
  }

  function render() {
    $("match-title").textContent = `Round ${match.round}, table ${match.table}: ${match.home.name} – ${match.away.name}`;
    $("entry-boards").tBodies[0].replaceChildren(...match.boards.map((b) => el("tr", { id: `board-${b.board}`, dataset: { board: b.board, stored: b.result || "" } },
      el("td", { class: "num" }, b.board),
      el("td", { class: "white" }, player(b.board, "white"), el("small", {}, ` ${teamName(b.white)}`)),
      el("td", { class: "black" }, player(b.board, "black"), el("small", {}, ` ${teamName(b.black)}`)),
      el("td", { class: "stored" }, b.result ? code(b.result) : "—"),
      el("td", {}, el("select", { class: "result", "aria-label": `board ${b.board} result`, onchange: changed,
        disabled: Boolean(b.result) && !mayCorrect() },
        el("option", { value: "" }, "—"),
        T.result_codes.map((c) => el("option", { value: c, selected: c === b.result }, label(c))))),
      el("td", {}, el("input", { class: "reason", size: 36, "aria-label": `board ${b.board} reason`, oninput: changed,
        hidden: Boolean(b.result) && !mayCorrect() })))));
    $("forfeit").hidden = Boolean(scope) && !scope.forfeits;
    $("forfeit-winner").replaceChildren(
      el("option", { value: match.home.team_id }, match.home.name),
      el("option", { value: match.away.team_id }, match.away.name),
      el("option", { value: "" }, "nobody: both teams forfeit"));
    $("match").hidden = false;
    changed();
  }

  const mayCorrect = () => !scope || scope.corrections;
  const player = (board, side) => (names.find((n) => n.board === board) || {})[side] || "";

  function label(c) {
    return { "+/-": "+/- (forfeit, White wins)", "-/+": "-/+ (forfeit, Black wins)", "-/-": "-/- (double forfeit)" }[c] || code(c);
  }

  // The boards as entered: {board, result, reason, stored}.
  function entries() {
    return [...$("entry-boards").tBodies[0].rows].map((tr) => ({
      board: Number(tr.dataset.board), stored: tr.dataset.stored || null,
      result: tr.querySelector("select.result").value, reason: tr.querySelector("input.reason").value.trim(),
    }));
  }

  async function changed() {
    const list = entries();
    const fresh = list.filter((e) => e.result && !e.stored);
    const fixes = list.filter((e) => e.result && e.stored && e.result !== e.stored);
    for (const e of list) $(`board-${e.board}`).classList.toggle("correction", Boolean(e.stored && e.result && e.result !== e.stored));
    const parts = [fresh.length ? `${fresh.length} result${fresh.length > 1 ? "s" : ""}` : "",
      fixes.length ? `${fixes.length} correction${fixes.length > 1 ? "s" : ""}` : ""].filter(Boolean);
    $("submit").disabled = parts.length === 0;
    $("submit").textContent = parts.length ? `Submit ${parts.join(" and ")}` : "Nothing to submit";
    let s = match; // nothing new entered: the stored score
    if (parts.length) {
      const p = await Api.post(`${base}/rounds/${match.round}/tables/${match.table}/preview`,
        { boards: list.filter((e) => e.result).map((e) => ({ board: e.board, result: e.result })) });
      if (!p.ok) { $("score").textContent = p.body.detail; return; }
      s = p.body;
    }
    $("score").replaceChildren(`${match.home.name} ${pts(s.home_gp)} : ${pts(s.away_gp)} ${match.away.name} `,
      el("small", {}, s.complete ? `(match points ${s.home_mp} : ${s.away_mp})` : `(${s.boards_in} of ${match.boards.length} boards)`));
    $("score").dataset.home = s.home_gp;
    $("score").dataset.away = s.away_gp;
  }

  function token() {
    const t = $("token").value.trim();
    if ($("remember").checked && t) localStorage.setItem(storageKey, t);
    return t;
  }

  function refused(r) {
    say("error", refusal(r, "Entry"));
  }

  // Results first (one request for the new boards), then one correction per changed board; each
  // answer carries the table as stored, which the page shows.
  async function submit() {
    const list = entries();
    const fresh = list.filter((e) => e.result && !e.stored);
    const fixes = list.filter((e) => e.result && e.stored && e.result !== e.stored);
    const url = `${base}/rounds/${match.round}/tables/${match.table}`;
    const done = [];
    const stop = (text) => { say("error", text); render(); };
    $("submit").disabled = true;
    window.submittedAt = Date.now();
    if (fresh.length) {
      const r = await Api.post(`${url}/results`, { boards: fresh.map((e) => ({ board: e.board, result: e.result, reason: e.reason || null })) }, token());
      if (!r.ok) { refused(r); $("submit").disabled = false; return; }
      match = r.body.match;
      done.push(`${fresh.length} result${fresh.length > 1 ? "s" : ""}`);
    }
    for (const e of fixes) {
      if (!e.reason) { stop(`Board ${e.board}: a correction needs a reason. ${done.length ? "Only " + done.join(" and ") + " stored." : "Nothing was stored."}`); return; }
      const r = await Api.post(`${url}/corrections`, { board: e.board, result: e.result, reason: e.reason }, token());
      if (!r.ok) { refused(r); render(); return; }
      match = r.body.match;
      done.push(`correction of board ${e.board}`);
    }
    render();
    say("ok", `Stored ${done.join(" and ")} (round ${match.round}, table ${match.table}). ` +
      `Match: ${match.home.name} ${pts(match.home_gp)} : ${pts(match.away_gp)} ${match.away.name}.`);
  }

  async function forfeit() {
    const r = await Api.post(`${base}/rounds/${match.round}/tables/${match.table}/forfeit`,
      { winner: $("forfeit-winner").value || null, reason: $("forfeit-reason").value.trim() }, token());
    if (!r.ok) { refused(r); return; }
    match = r.body.match;
    render();
    say("ok", `Stored the forfeit of round ${match.round}, table ${match.table}.`);
  }

  $("load").addEventListener("click", load);
  $("token").addEventListener("change", async () => { await readScope(); await load(); });
  $("submit").addEventListener("click", submit);
  $("forfeit-submit").addEventListener("click", forfeit);
  window.addEventListener("hashchange", async () => { fromFragment(); await readScope(); await load(); });
  await readScope();
  await load();
})();
