// The audit trail page: GET /api/tournaments/{tid}/audit-trail as a table (no framework).
(async () => {
  const list = await (await fetch("/api/tournaments")).json();
  if (!list.length) { document.getElementById("message").textContent = "No tournament is served."; return; }
  const tid = new URLSearchParams(location.search).get("t") || list[0].tournament_id;
  const answer = await fetch(`/api/tournaments/${encodeURIComponent(tid)}/audit-trail`);
  const body = document.querySelector("#trail tbody");
  if (!answer.ok) { document.getElementById("message").textContent = (await answer.json()).detail; return; }
  document.getElementById("title").textContent = `Audit trail: ${tid}`;
  for (const a of await answer.json()) {
    const tr = document.createElement("tr");
    for (const [value, cls] of [[a.when, ""], [a.who, ""], [a.round ?? "", "num"], [a.what, ""], [a.reason, ""]]) {
      const td = document.createElement("td");
      td.textContent = value;
      if (cls) td.className = cls;
      tr.appendChild(td);
    }
    body.appendChild(tr);
  }
})();
