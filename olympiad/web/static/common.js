// Shared helpers of the pages: API calls, the tournament served, point formatting, DOM building.
"use strict";

const Api = {
  async get(path) {
    const r = await fetch(path, { headers: { Accept: "application/json" } });
    const body = await r.json();
    if (!r.ok) throw Object.assign(new Error(body.detail || r.statusText), { status: r.status, body });
    return body;
  },
  // POST JSON; resolves to {ok, status, body} so pages can show refusals as they are.
  async post(path, body, token) {
    const headers = { "Content-Type": "application/json", Accept: "application/json" };
    if (token) headers.Authorization = "Bearer " + token;
    const r = await fetch(path, { method: "POST", headers, body: JSON.stringify(body) });
    let data = null;
    try { data = await r.json(); } catch (e) { data = { detail: r.statusText }; }
    return { ok: r.ok, status: r.status, body: data };
  },
};

// The tournament served: ?t=<id> if given, else the first one.
async function currentTournament() {
  const list = await Api.get("/api/tournaments");
  const want = new URLSearchParams(location.search).get("t");
  return list.find((t) => t.tournament_id === want) || list[0] || null;
}

// A refused write ({status, body} of Api.post, body a Refusal) in words, with its field and rule:
// "WHAT refused (HTTP 422): detail [field: boards; rule: R-D1 fixed board order]. Nothing was written."
function refusal(r, what) {
  const b = r.body || {};
  const why = [b.field ? `field: ${b.field}` : "", b.rule ? `rule: ${b.rule}` : ""].filter(Boolean).join("; ");
  const detail = String(b.detail ?? "").replace(b.rule ? ` [rule: ${b.rule}]` : "", ""); // named once, below
  return `${what} refused (HTTP ${r.status}): ${detail}${why ? ` [${why}]` : ""}. Nothing was written.`;
}

// "11.5" -> "11½", "0.5" -> "½" (display only; values stay decimal strings).
function pts(value) {
  if (value === null || value === undefined) return "";
  const s = String(value);
  if (!s.endsWith(".5")) return s;
  const whole = s.slice(0, -2);
  return (whole === "0" ? "" : whole) + "½";
}

// Result code for display: "1/2-1/2" -> "½-½".
function code(value) {
  return value ? value.replaceAll("1/2", "½") : "";
}

// el("td", {class: "num", dataset: {team: "USA"}}, "text", childNode...)
function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "dataset") Object.assign(node.dataset, v);
    else if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}
