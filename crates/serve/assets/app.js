// The arbiter's page: loads a game (FEN and moves, or a record file), steps through
// it, and shows at each ply the board (the service's SVG, with the side to move's
// banned and drawing moves marked), the ruling and the flagged moves. Everything
// comes from the service's JSON API on the same origin; nothing is loaded from
// elsewhere.
"use strict";

const state = {
  lang: "zh",
  fen: "",
  moves: [],      // ICCS, the whole game
  played: [],     // the moves with their notations
  ply: 0,
  token: new URLSearchParams(location.hash.slice(1)).get("token") || "",
  seq: 0,         // the latest view asked for (older answers are dropped)
};

const $ = (id) => document.getElementById(id);

const WORDS = {
  status: {
    ongoing: ["對局進行中", "game goes on"],
    checkmate: ["將死", "checkmate"],
    stalemate: ["困斃", "no legal move (stalemate)"],
    repetition: ["循環重複（待判局面）", "repetition (position occurred three times)"],
    sixty_moves: ["六十回合自然限著，和棋", "sixty moves without a capture: draw"],
    dead_position: ["雙方無進攻子力，和棋", "neither side can win: draw"],
  },
  winner: { red: ["紅勝", "red wins"], black: ["黑勝", "black wins"], draw: ["和棋", "draw"] },
  side: { red: ["紅方", "red"], black: ["黑方", "black"], none: ["無（不變作和）", "nobody (a draw if neither varies)"] },
  kind: { "將": ["將", "check"], "殺": ["殺", "mate threat"], "捉": ["捉", "chase"], "閒": ["閒", "idle"] },
  verdict: { ban: ["禁著", "banned"], draw: ["和著", "drawing"] },
};

function word(table, key) {
  const w = WORDS[table][key];
  return w ? w[state.lang === "zh" ? 0 : 1] : key;
}

// Articles cited as "§25.1" or an AXF rule name, written per language.
function articles(list) {
  return list.map((a) => (/^[0-9.]+$/.test(a) ? (state.lang === "zh" ? "第" + a + "條" : "§" + a) : a)).join(state.lang === "zh" ? "、" : ", ");
}

function citations(text) {
  const found = text.match(/§[0-9.]+/g) || [];
  return articles(found.map((s) => s.slice(1)));
}

function moveText(m) {
  return state.lang === "zh" ? m.chinese : m.wxf + " (" + m.move + ")";
}

async function api(path, body, raw) {
  const headers = {};
  if (state.token) headers["Authorization"] = "Bearer " + state.token;
  let init = { method: "GET", headers };
  if (body !== undefined) {
    init.method = "POST";
    if (raw) {
      headers["Content-Type"] = "application/octet-stream";
      init.body = body;
    } else {
      headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
  }
  const r = await fetch(path, init);
  if (!r.ok) {
    let msg = r.status + " " + r.statusText;
    try { msg = (await r.json()).error || msg; } catch (e) { /* not JSON */ }
    throw new Error(msg);
  }
  return r;
}

function showError(e) {
  $("error").textContent = e ? String(e.message || e) : "";
}

function game(ply) {
  return { fen: state.fen || undefined, moves: state.moves.slice(0, ply), rules: $("rules").value };
}

// Loads a game from the form: FEN and moves in any notation, checked by the service.
async function loadText() {
  showError(null);
  const texts = $("moves").value.split(/[\s,]+/).filter((t) => t && !/^\d+\.+$/.test(t));
  state.fen = $("fen").value.trim();
  const r = await api("/api/moves", { fen: state.fen || undefined, moves: texts, rules: $("rules").value });
  const j = await r.json();
  start(j.played, j.played.length);
}

async function loadFile(file) {
  showError(null);
  const bytes = new Uint8Array(await file.arrayBuffer());
  const n = Math.max(1, parseInt($("game").value, 10) || 1);
  const r = await api("/api/record?game=" + n, bytes, true);
  const j = await r.json();
  state.fen = j.fen;
  $("fen").value = j.fen;
  $("moves").value = j.moves.join(" ");
  const listed = await api("/api/moves", { fen: j.fen, moves: j.moves, rules: $("rules").value }).then((r) => r.json());
  start(listed.played, listed.played.length);
  if (j.warnings.length) showError(j.warnings.join("; "));
}

// A new game: its moves with their notations; shows it at `ply`.
function start(played, ply) {
  state.played = played;
  state.moves = played.map((p) => p.move);
  $("slider").max = state.moves.length;
  go(ply);
}

function go(ply) {
  state.ply = Math.max(0, Math.min(ply, state.moves.length));
  $("slider").value = state.ply;
  $("plyinfo").textContent = state.ply + " / " + state.moves.length;
  $("analysis").textContent = "";
  refresh().catch(showError);
}

async function refresh() {
  const seq = ++state.seq;
  const g = game(state.ply);
  const [svg, judged, here] = await Promise.all([
    api("/api/diagram", Object.assign({ marks: true }, g)).then((r) => r.text()),
    api("/api/judge", g).then((r) => r.json()),
    api("/api/moves", g).then((r) => r.json()),
  ]);
  if (seq !== state.seq) return;
  drawBoard(svg);
  drawMoveList();
  drawRuling(judged);
  drawFlagged(here);
}

function drawBoard(svg) {
  const doc = new DOMParser().parseFromString(svg, "image/svg+xml");
  const board = $("board");
  board.replaceChildren(document.importNode(doc.documentElement, true));
}

function drawMoveList() {
  const list = $("movelist");
  list.replaceChildren();
  state.played.forEach((m, i) => {
    const li = document.createElement("li");
    li.textContent = moveText(m);
    if (i + 1 === state.ply) li.className = "current";
    li.addEventListener("click", () => go(i + 1));
    list.appendChild(li);
  });
}

function drawRuling(j) {
  $("verdict").textContent = word("status", j.status);
  $("verdict").dataset.status = j.status;
  $("winner").textContent = j.winner ? word("winner", j.winner) : "—";
  $("winner").dataset.winner = j.winner || "";
  const r = j.repetition;
  const body = $("cycle").tBodies[0];
  body.replaceChildren();
  if (!r) {
    $("must-vary").textContent = "—";
    $("must-vary").dataset.side = "";
    $("reason").textContent = state.lang === "zh" ? "無三次重複局面" : "no position has occurred three times";
    return;
  }
  const mv = r.must_vary;
  let ruling = word("side", mv);
  if (mv !== "none") ruling += state.lang === "zh" ? (r.immediate ? "（立即判負）" : "（須變著）") : (r.immediate ? " (loses at once)" : " (must vary)");
  $("must-vary").textContent = ruling;
  $("must-vary").dataset.side = mv;
  const patterns = state.lang === "zh"
    ? "紅：" + r.red + "；黑：" + r.black + "。依據 " + articles(r.articles) + "。第 " + r.ply + " 步局面已出現 " + r.occurrences + " 次。"
    : "red: " + r.red + "; black: " + r.black + ". " + articles(r.articles) + ": " + r.reason + ". The position at ply " + r.ply + " has occurred " + r.occurrences + " times.";
  $("reason").textContent = patterns;
  const byPly = new Map(state.played.map((p) => [p.ply, p]));
  for (const c of r.cycle) {
    const tr = document.createElement("tr");
    if (c.side === mv) tr.className = "violator";
    const p = byPly.get(c.ply);
    const cells = [
      String(c.ply),
      word("side", c.side),
      p ? moveText(p) : c.move,
      state.lang === "zh" ? c.kind + (c.chases.length ? "（" + c.chases.join("、") + "）" : "") : word("kind", c.kind) + (c.chases.length ? " (" + c.chases.join(", ") + ")" : ""),
      state.lang === "zh" ? citations(c.why) : c.why,
    ];
    for (const text of cells) {
      const td = document.createElement("td");
      td.textContent = text;
      tr.appendChild(td);
    }
    body.appendChild(tr);
  }
}

function drawFlagged(here) {
  const ul = $("flagged");
  ul.replaceChildren();
  const flagged = here.moves.filter((m) => m.verdict !== "none");
  if (!flagged.length) {
    const li = document.createElement("li");
    li.textContent = state.lang === "zh" ? "無" : "none";
    ul.appendChild(li);
  }
  for (const m of flagged) {
    const li = document.createElement("li");
    const tag = document.createElement("span");
    tag.className = m.verdict;
    tag.textContent = word("verdict", m.verdict);
    li.append(tag, " " + moveText(m) + " — " + (state.lang === "zh" ? citations(m.why) : m.why));
    li.dataset.move = m.move;
    li.dataset.verdict = m.verdict;
    ul.appendChild(li);
  }
}

async function analyse() {
  const out = $("analysis");
  out.textContent = state.lang === "zh" ? "分析中……" : "analysing…";
  try {
    const j = await api("/api/analyse", Object.assign({ movetime_ms: 2000 }, game(state.ply))).then((r) => r.json());
    if (!j.bestmove) {
      out.textContent = state.lang === "zh" ? "無著可走" : "no move to play";
      return;
    }
    const here = await api("/api/moves", game(state.ply)).then((r) => r.json());
    const best = here.moves.find((m) => m.move === j.bestmove);
    const score = j.score ? ("mate" in j.score ? (state.lang === "zh" ? "殺 " : "mate ") + j.score.mate : j.score.cp + " cp") : "";
    out.textContent = (state.lang === "zh" ? "最佳著法：" : "Best move: ") + (best ? moveText(best) : j.bestmove) +
      " · " + score + " · " + (state.lang === "zh" ? "深度 " : "depth ") + j.depth + " · PV " + j.pv.join(" ");
  } catch (e) {
    out.textContent = String(e.message || e);
  }
}

function setLanguage(lang) {
  state.lang = lang;
  document.documentElement.lang = lang === "zh" ? "zh-Hant" : "en";
  for (const el of document.querySelectorAll("[data-zh]")) el.textContent = el.dataset[lang];
  refresh().catch(showError);
}

document.addEventListener("DOMContentLoaded", () => {
  $("first").addEventListener("click", () => go(0));
  $("prev").addEventListener("click", () => go(state.ply - 1));
  $("next").addEventListener("click", () => go(state.ply + 1));
  $("last").addEventListener("click", () => go(state.moves.length));
  $("slider").addEventListener("input", () => go(parseInt($("slider").value, 10)));
  $("rules").addEventListener("change", () => go(state.ply));
  $("lang").addEventListener("click", () => setLanguage(state.lang === "zh" ? "en" : "zh"));
  $("analyse").addEventListener("click", analyse);
  $("input").addEventListener("submit", (e) => { e.preventDefault(); loadText().catch(showError); });
  $("file").addEventListener("change", () => { const f = $("file").files[0]; if (f) loadFile(f).catch(showError); });
  document.addEventListener("keydown", (e) => {
    if (e.target.closest("input, textarea, select")) return;
    if (e.key === "ArrowLeft") go(state.ply - 1);
    if (e.key === "ArrowRight") go(state.ply + 1);
  });
  go(0);
});
