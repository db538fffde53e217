// The desk's page. Every text that comes from a record (names, tags, comments, messages)
// goes into the page as textContent or an input's value, never as markup; the board is
// the library's SVG, shown as an image (no script in it can run).
"use strict";

const TOKEN = document.querySelector('meta[name="desk-token"]').content;
const PAGE = 100;
const $ = (id) => document.getElementById(id);

const state = {
  files: [],
  file: null,      // id of the file shown
  filter: "all",
  player: "",      // the player searched for ("" for all)
  offset: 0,
  matched: 0,
  game: null,      // the open game (its detail)
  selected: new Set(), // the games selected for an edit of several at once
  frame: 0,
};

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = String(text);
  if (cls) e.className = cls;
  return e;
}

// Text from a record or a file name, shown as it is: a control or direction character
// is shown as its code (it cannot reorder or hide what follows), and the whole is isolated
// (FSI ... PDI) so that no name can turn the text around it.
const HIDDEN = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

function visible(text) {
  return String(text).replace(HIDDEN, (c) => "\u27e8U+" + c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0") + "\u27e9");
}

// The same for the library's printed reports (several lines): line breaks kept.
const HIDDEN_IN_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

function visibleLines(text) {
  return String(text).replace(HIDDEN_IN_LINES, (c) => "\u27e8U+" + c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0") + "\u27e9");
}

function isolated(text) {
  return "\u2068" + visible(text) + "\u2069";
}

// A name in its own <bdi>, controls shown.
function bdi(text, cls) {
  return el("bdi", visible(text), cls);
}

function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
}

function say(text, error) {
  const m = $("message");
  m.textContent = text || "";
  m.className = error ? "error" : "";
}

async function api(method, path, body, raw) {
  const options = { method, headers: {} };
  if (method !== "GET") options.headers["X-Desk-Token"] = TOKEN;
  if (raw !== undefined) {
    options.body = raw;
  } else if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  let value = null;
  try { value = await response.json(); } catch (e) { value = { error: response.statusText }; }
  if (!response.ok) throw new Error((value && value.error) || response.statusText);
  return value;
}

// ---- files ----

async function loadFolder() {
  const { files } = await api("GET", "/api/folder");
  const list = $("folder-list");
  clear(list);
  if (files.length === 0) list.appendChild(el("li", "no record files", "note"));
  for (const f of files) {
    const li = el("li");
    li.appendChild(bdi(f.path, "path"));
    const b = el("button", "open");
    b.type = "button";
    b.dataset.path = f.path;
    b.setAttribute("aria-label", "open " + isolated(f.path));
    b.addEventListener("click", () => openServed(f.root, f.path));
    li.appendChild(b);
    list.appendChild(li);
  }
}

async function openServed(root, path) {
  say("reading " + isolated(path) + " ...");
  try {
    const summary = await api("POST", "/api/open", { root, path });
    added(summary);
  } catch (e) { say(e.message, true); }
}

async function upload(files) {
  for (const file of files) {
    say("reading " + isolated(file.name) + " ...");
    try {
      const headers = { "X-Desk-Token": TOKEN, "X-File-Name": encodeURIComponent(file.name) };
      const response = await fetch("/api/upload", { method: "POST", headers, body: file });
      const value = await response.json().catch(() => ({ error: response.statusText }));
      if (!response.ok) throw new Error(value.error || response.statusText);
      added(value);
    } catch (e) { say(isolated(file.name) + ": " + e.message, true); }
  }
}

async function added(summary) {
  say(isolated(summary.name) + (summary.already ? ": already loaded (the same file, with its edits)" : ": " + summary.games + " games read"));
  await refreshFiles();
  showFile(summary.id);
}

// The files the server holds: the page shows what the server has, nothing of its own.
async function refreshFiles() {
  const { files } = await api("GET", "/api/files");
  state.files = files;
  const select = $("file-select");
  clear(select);
  if (files.length === 0) {
    const none = el("option", "no file loaded");
    none.value = "";
    none.disabled = true;
    select.appendChild(none);
  }
  for (const f of files) {
    const option = el("option", isolated(f.served || f.name) + " (" + f.games + " games)" + (f.changed ? " \u2022 unsaved" : ""));
    option.value = f.id;
    option.dataset.changed = f.changed ? "yes" : "no";
    select.appendChild(option);
  }
  if (state.file !== null && !files.some((f) => f.id === state.file)) state.file = null;
  if (state.file !== null) select.value = state.file;
  fileControls();
  return files;
}

function current() {
  return state.files.find((f) => f.id === state.file) || null;
}

// The shown file's undo, redo and close, and the unsaved marks.
function fileControls() {
  const f = current();
  const undo = $("file-undo"), redo = $("file-redo");
  undo.disabled = !(f && f.undo);
  redo.disabled = !(f && f.redo);
  const which = (s) => (s.games > 1 ? s.games + " games" : "game " + s.game);
  undo.title = f && f.undo ? "undo: " + f.undo.what + " (" + which(f.undo) + ")" : "nothing to undo";
  redo.title = f && f.redo ? "redo: " + f.redo.what + " (" + which(f.redo) + ")" : "nothing to redo";
  undo.setAttribute("aria-label", undo.title);
  redo.setAttribute("aria-label", redo.title);
  $("file-close").disabled = !f;
  $("file-changed").hidden = !(f && f.changed);
  document.body.dataset.unsaved = state.files.some((x) => x.changed) ? "yes" : "no";
}

// Where the page is (file, game) in its address, so that a reload comes back to it.
function remember() {
  const parts = [];
  if (state.file !== null) parts.push("file=" + state.file);
  if (state.file !== null && state.game) parts.push("game=" + state.game.index);
  history.replaceState(null, "", parts.length ? "#" + parts.join("&") : location.pathname);
}

function hideGame() {
  state.game = null;
  $("game-view").hidden = true;
  $("game-title").textContent = "No game open";
}

function showFile(id) {
  const before = state.file;
  state.file = id === "" || id === null ? null : Number(id);
  state.offset = 0;
  if (before !== state.file) { hideGame(); state.selected.clear(); }
  if (state.file !== null) $("file-select").value = state.file;
  fileControls();
  remember();
  const summary = current();
  $("file-note").textContent = summary ? visible(summary.note) : "";
  const problems = $("file-problems");
  clear(problems);
  for (const p of (summary && summary.problems) || []) problems.appendChild(el("li", visible(p)));
  // The name suggested to save under: the file's, without what a file name may not hold.
  const stem = summary ? summary.name.replace(/^.*[\\/]/, "").replace(/\.[^.]*$/, "").replace(HIDDEN, "") || "games" : "games";
  $("save-name").value = stem + "-fixed." + extension($("export-format").value);
  $("save-beside").hidden = !(summary && summary.served);
  resetExport();
  return loadList();
}

function selectionShown() {
  const n = state.selected.size;
  $("bulk-count").textContent = n ? n + " selected" : "";
  $("bulk-apply").disabled = n === 0;
  $("bulk-rename").disabled = n === 0;
  const picks = [...document.querySelectorAll("#game-list tbody input.pick")];
  $("select-all").checked = picks.length > 0 && picks.every((p) => p.checked);
}

// A tag set on every game selected: one edit, undone at once.
async function setOnSelection() {
  const f = current();
  if (!f || state.selected.size === 0) return;
  const set = $("bulk-set").value;
  try {
    const done = await api("POST", "/api/files/" + f.id + "/set", { set, games: [...state.selected], revision: f.revision });
    say(visible(set.trim()) + " set on " + done.changed.length + " game(s)" +
      (done.unchanged.length ? "; " + done.unchanged.length + " had it already" : "") +
      (done.unreadable.length ? "; " + done.unreadable.length + " could not be read" : ""));
    await refreshFiles();
    await loadList();
    if (state.game && done.changed.includes(state.game.index)) await openGame(state.game.index, true);
  } catch (e) { say(e.message, true); }
}

// The players' names of every game selected mapped through the served folder's register
// (as `reversi convert --rename players.csv`): one edit, undone at once.
async function renameOnSelection() {
  const f = current();
  if (!f || state.selected.size === 0) return;
  try {
    const done = await api("POST", "/api/files/" + f.id + "/rename", { games: [...state.selected], revision: f.revision });
    say("names mapped through the register on " + done.changed.length + " game(s)" +
      (done.unchanged.length ? "; " + done.unchanged.length + " had the registered names already" : "") +
      (done.unreadable.length ? "; " + done.unreadable.length + " could not be read" : ""));
    await refreshFiles();
    await loadList();
    if (state.game && done.changed.includes(state.game.index)) await openGame(state.game.index, true);
  } catch (e) { say(e.message, true); }
}

async function travel(back) {
  if (state.file === null) return;
  try {
    const f = current();
    const seen = f ? "?revision=" + f.revision : "";
    const done = await api("POST", "/api/files/" + state.file + (back ? "/undo" : "/redo") + seen);
    await refreshFiles();
    showGame(done.game, true);
    await loadList();
    say((back ? "undone: " : "redone: ") + (back ? done.file.redo : done.file.undo).what + " (game " + done.game.index + ")");
  } catch (e) { say(e.message, true); }
}

async function closeFile() {
  const f = current();
  if (!f) return;
  let discard = false;
  if (f.changed) {
    if (!window.confirm(isolated(f.name) + " has unsaved edits. Close it and lose them?")) return;
    discard = true;
  }
  try {
    await api("POST", "/api/files/" + f.id + "/close", { discard });
    say(isolated(f.name) + " closed");
    state.file = null;
    hideGame();
    const files = await refreshFiles();
    await showFile(files.length ? files[0].id : null);
  } catch (e) { say(e.message, true); }
}

// ---- the list ----

async function loadList() {
  if (state.file === null) {
    clear($("game-list").tBodies[0]);
    $("list-counts").textContent = "";
    $("page-info").textContent = "";
    return;
  }
  const q = "?status=" + encodeURIComponent(state.filter) + "&player=" + encodeURIComponent(state.player) + "&offset=" + state.offset + "&limit=" + PAGE;
  const t0 = performance.now();
  const list = await api("GET", "/api/files/" + state.file + "/games" + q);
  state.matched = list.matched;
  const c = list.counts;
  $("list-counts").textContent = list.total + " games: " + c.valid + " valid, " + c.warnings +
    " with warnings, " + c.errors + " with errors, " + c.repaired + " repaired";
  const body = $("game-list").tBodies[0];
  clear(body);
  for (const g of list.games) {
    const tr = el("tr");
    tr.dataset.index = g.index;
    tr.dataset.status = g.status;
    const number = el("td");
    const pick = el("input");
    pick.type = "checkbox";
    pick.className = "pick";
    pick.checked = state.selected.has(g.index);
    pick.setAttribute("aria-label", "select game " + g.index);
    pick.addEventListener("click", (e) => e.stopPropagation());
    pick.addEventListener("change", () => {
      if (pick.checked) state.selected.add(g.index); else state.selected.delete(g.index);
      selectionShown();
    });
    number.appendChild(pick);
    number.appendChild(document.createTextNode(" " + g.index));
    tr.appendChild(number);
    for (const v of [g.black || "", g.white || "", g.round || "", g.board || ""]) {
      const td = el("td");
      td.appendChild(bdi(v));
      tr.appendChild(td);
    }
    const status = el("td", g.status, "status status-" + g.status);
    if (g.first) status.title = g.first;
    tr.appendChild(status);
    if (state.game && state.game.index === g.index) tr.classList.add("open");
    // A row is a control: reached with Tab, opened with Enter or Space.
    tr.tabIndex = 0;
    tr.setAttribute("aria-label", "game " + g.index + ": " + isolated(g.black || "?") + " against " + isolated(g.white || "?") + ", " + g.status);
    tr.addEventListener("click", () => openGame(g.index));
    tr.addEventListener("keydown", (e) => {
      if (e.target !== tr) return;
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); openGame(g.index); }
      else if (e.key === "ArrowDown" && tr.nextElementSibling) { e.preventDefault(); tr.nextElementSibling.focus(); }
      else if (e.key === "ArrowUp" && tr.previousElementSibling) { e.preventDefault(); tr.previousElementSibling.focus(); }
    });
    body.appendChild(tr);
  }
  const last = Math.min(state.offset + PAGE, list.matched);
  $("page-info").textContent = list.matched === 0 ? "none" : (state.offset + 1) + "-" + last + " of " + list.matched;
  selectionShown();
  $("page-prev").disabled = state.offset === 0;
  $("page-next").disabled = last >= list.matched;
  $("game-list").dataset.ms = Math.round(performance.now() - t0);
}

// ---- a game ----

async function openGame(index, keepFrame) {
  try {
    const game = await api("GET", "/api/files/" + state.file + "/games/" + index);
    showGame(game, keepFrame);
  } catch (e) { say(e.message, true); }
}

function identityText(game) {
  const i = game.identity || {};
  const players = isolated(i.black || "?") + " vs " + isolated(i.white || "?");
  const where = [i.round ? "round " + isolated(i.round) : "", i.board ? "board " + isolated(i.board) : ""].filter(Boolean).join(", ");
  return "game " + game.index + ": " + players + (where ? ", " + where : "");
}

function showGame(game, keepFrame) {
  state.game = game;
  $("game-view").hidden = false;
  $("game-title").textContent = identityText(game);
  for (const tr of $("game-list").tBodies[0].rows) tr.classList.toggle("open", Number(tr.dataset.index) === game.index);
  remember();
  // Diagnostics, as the command line prints them.
  const diagnostics = $("diagnostics");
  clear(diagnostics);
  if (game.diagnostics.length === 0) diagnostics.appendChild(el("p", "no findings: the game is valid", "status-valid"));
  for (const d of game.diagnostics) {
    const pre = el("pre", visibleLines(d.text), d.severity);
    pre.dataset.code = d.code;
    // It scrolls: reached with Tab, its lines read with the arrows.
    pre.tabIndex = 0;
    pre.setAttribute("aria-label", d.severity + " " + d.code);
    diagnostics.appendChild(pre);
  }
  // Moves.
  const list = $("move-list");
  clear(list);
  const walk = game.walk;
  const played = walk ? walk.frames.length - 1 : 0;
  for (const m of walk ? walk.moves : []) {
    const li = el("li", m.text + (m.comment ? " {" + m.comment + "}" : ""));
    li.dataset.number = m.number;
    if (m.number > played) li.classList.add("unplayed");
    if (game.faulty === m.number || (walk.stopped && walk.stopped.number === m.number)) li.classList.add("faulty");
    li.addEventListener("click", () => step(Math.min(m.number, played)));
    list.appendChild(li);
  }
  $("goto-fault").hidden = !game.faulty;
  // Repair and tags.
  clear($("repair-report"));
  clear($("repair-candidates"));
  $("repair-find").disabled = game.status !== "errors";
  const changes = $("changes");
  clear(changes);
  for (const c of game.changes) changes.appendChild(el("li", c));
  showTags(game.tags);
  step(keepFrame ? Math.min(state.frame, played) : 0);
}

function step(k) {
  const walk = state.game && state.game.walk;
  if (!walk) {
    $("board").removeAttribute("src");
    return;
  }
  const last = walk.frames.length - 1;
  k = Math.max(0, Math.min(last, k));
  state.frame = k;
  const f = walk.frames[k];
  $("board").src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(f.svg);
  $("board").alt = "the board after " + k + " moves";
  $("step-info").textContent = k === 0 ? "start" : "after move " + k + " of " + walk.moves.length;
  const count = (name) => { const d = f.discs.find((x) => x[0] === name); return d ? d[1] : ""; };
  $("discs-black").textContent = count("black");
  $("discs-white").textContent = count("white");
  $("discs-more").textContent = f.discs.slice(2).map((d) => ", " + d[0] + " " + d[1]).join("");
  $("turn").textContent = f.turn + (f.last ? " (last: " + f.last + ")" : "");
  $("legal").textContent = f.legal.length ? f.legal.join(" ") : "none";
  for (const li of $("move-list").children) li.classList.toggle("current", Number(li.dataset.number) === k);
  $("step-prev").disabled = k === 0;
  $("step-first").disabled = k === 0;
  $("step-next").disabled = k === last;
  $("step-last").disabled = k === last;
}

function gotoFault() {
  const g = state.game;
  if (!g || !g.faulty) return;
  // The position the faulty move is played in: the move is crossed on the board.
  step(g.faulty - 1);
}

// ---- repair ----

async function findRepairs() {
  const g = state.game;
  say("searching repairs ...");
  try {
    const found = await api("POST", "/api/files/" + state.file + "/games/" + g.index + "/repair");
    const report = $("repair-report");
    clear(report);
    if (found.report) report.appendChild(el("pre", visibleLines(found.report)));
    if (found.not_searched) report.appendChild(el("p", found.not_searched, "note"));
    const list = $("repair-candidates");
    clear(list);
    if (found.candidates.length === 0) list.appendChild(el("li", "no repair found (" + found.status + ")", "note"));
    for (const c of found.candidates) {
      const li = el("li");
      const label = c.choice === 0 ? "repair" : "alternative " + c.choice;
      li.appendChild(el("span", label + ": " + c.edits.map((e) => e.text).join("; ") + " "));
      const b = el("button", "accept", "accept");
      b.type = "button";
      b.dataset.choice = c.choice;
      b.addEventListener("click", () => accept(c.choice));
      li.appendChild(b);
      list.appendChild(li);
    }
    say(found.status + ": " + found.candidates.length + " candidate(s)");
  } catch (e) { say(e.message, true); }
}

async function accept(choice) {
  const g = state.game;
  try {
    const game = await api("POST", "/api/files/" + state.file + "/games/" + g.index + "/accept", { choice, revision: g.revision });
    say("repair accepted for game " + g.index);
    showGame(game);
    await refreshFiles();
    loadList();
  } catch (e) { say(e.message, true); }
}

// ---- tags ----

function tagRow(name, value) {
  const tr = el("tr");
  const k = el("input"); k.value = name; k.className = "tag-name"; k.setAttribute("aria-label", "tag name");
  const v = el("input"); v.value = value; v.className = "tag-value"; v.setAttribute("aria-label", "tag value");
  const x = el("button", "remove"); x.type = "button";
  x.addEventListener("click", () => tr.remove());
  for (const c of [k, v, x]) { const td = el("td"); td.appendChild(c); tr.appendChild(td); }
  return tr;
}

function showTags(tags) {
  const body = $("tags").tBodies[0];
  clear(body);
  for (const [name, value] of tags) body.appendChild(tagRow(name, value));
}

async function saveTags() {
  const g = state.game;
  const tags = [];
  for (const tr of $("tags").tBodies[0].rows) {
    const name = tr.querySelector(".tag-name").value.trim();
    if (name) tags.push([name, tr.querySelector(".tag-value").value]);
  }
  try {
    const game = await api("POST", "/api/files/" + state.file + "/games/" + g.index + "/tags", { tags, revision: g.revision });
    say("tags saved for game " + g.index);
    showGame(game, true);
    await refreshFiles();
    loadList();
  } catch (e) { say(e.message, true); }
}

// ---- save ----

function extension(format) {
  const f = format.split(":")[0];
  return { rgn: "rgn", json: "json", ggf: "ggf", pgn: "pgn", sgf: "sgf", moves: "txt", transcript: "grid", obf: "obf" }[f] || "txt";
}

function resetExport() {
  clear($("export-report"));
  const link = $("download-link");
  link.classList.add("disabled");
  link.setAttribute("aria-disabled", "true");
  link.href = "#";
}

function reportList(report, node) {
  clear(node);
  node.appendChild(el("p", report.written + " of " + report.games + " games written as " + report.format +
    (report.refused.length ? "; " + report.refused.length + " refused" : "") +
    (report.dropped.length ? "; " + report.dropped.length + " lose something" : "")));
  const ul = el("ul");
  for (const r of report.refused) ul.appendChild(el("li", "game " + r.game + ": " + r.why, "refused"));
  for (const d of report.dropped) ul.appendChild(el("li", "game " + d.game + " loses " + d.what.join("; "), "dropped"));
  if (report.with_errors.length) ul.appendChild(el("li", "games with errors still: " + report.with_errors.join(", "), "refused"));
  node.appendChild(ul);
}

async function checkExport() {
  if (state.file === null) return;
  const format = $("export-format").value;
  const lossy = $("export-lossy").checked;
  try {
    const report = await api("POST", "/api/files/" + state.file + "/export", { format, lossy });
    reportList(report, $("export-report"));
    const link = $("download-link");
    link.href = "/api/files/" + state.file + "/download?format=" + encodeURIComponent(format) + "&lossy=" + lossy;
    link.setAttribute("download", report.download);
    link.classList.remove("disabled");
    link.setAttribute("aria-disabled", "false");
  } catch (e) { say(e.message, true); resetExport(); }
}

async function writeBeside() {
  if (state.file === null) return;
  const body = {
    format: $("export-format").value,
    lossy: $("export-lossy").checked,
    name: $("save-name").value,
    overwrite: $("save-overwrite").checked,
  };
  try {
    const done = await api("POST", "/api/files/" + state.file + "/save", body);
    const node = $("save-report");
    reportList(done.report, node);
    node.insertBefore(el("p", "written: " + done.written + (done.backup ? " (backup: " + done.backup + ")" : ""), "status-valid"), node.firstChild);
    say("written " + isolated(done.written));
    await refreshFiles();
    loadFolder();
  } catch (e) { say(e.message, true); }
}

// ---- the event: rounds by boards, players with their games ----

// A game's status at a glance: the later of two copies is a duplicate, whatever its checks.
function eventStatus(g) { return g.duplicate_of ? "duplicate" : g.status; }

function eventGameButton(g, label) {
  const status = eventStatus(g);
  const b = el("button", label, "event-game status-" + status);
  b.type = "button";
  b.dataset.file = g.file;
  b.dataset.game = g.index;
  b.dataset.status = status;
  b.title = status + (g.duplicate_of ? ": the same game as game " + g.duplicate_of.game : g.first ? ": " + g.first : "");
  b.setAttribute("aria-label", label + ", " + status);
  b.addEventListener("click", async () => {
    await showFile(g.file);
    await openGame(g.index);
    $("game-pane").scrollIntoView();
  });
  return b;
}

// A pairings line no game record stands for: a bye, a forfeit, a withdrawal, or a game
// expected and missing.
function eventLine(p) {
  const names = isolated(p.black || "?") + (p.white ? " \u2013 " + isolated(p.white) : "");
  const status = p.missing ? "missing" : p.status;
  const text = {
    bye: "bye: " + names,
    withdrawn: "withdrawn: " + names,
    forfeit: "forfeit: " + names + (p.absent ? " (" + (p.absent === "both" ? "both absent" : p.absent + " absent") + ")" : ""),
    missing: "missing: " + names,
  }[status];
  const s = el("span", text, "event-line status-" + status);
  s.dataset.status = status;
  s.dataset.line = p.line;
  s.title = "line " + p.line + " of the pairings";
  return s;
}

async function showEvent() {
  try {
    const { games, pairings } = await api("GET", "/api/event");
    $("event-pane").hidden = false;
    const natural = (a, b) => String(a).localeCompare(String(b), undefined, { numeric: true });
    // Numbers in order, a game without a round or board ("?") last.
    const place = (a, b) => (a === "?") - (b === "?") || natural(a, b);
    // The pairings' lines shown on their own: byes, forfeits, withdrawals, missing games.
    const lines = (pairings || []).filter((p) => p.missing || ["bye", "forfeit", "withdrawn"].includes(p.status));
    const rounds = [...new Set(games.map((g) => g.round || "?").concat(lines.map((p) => p.round || "?")))].sort(place);
    const boards = [...new Set(games.map((g) => g.board || "?").concat(lines.map((p) => p.board || "?")))].sort(place);
    const table = el("table", null, "event-table");
    const hr = el("tr");
    for (const h of ["Round"].concat(boards.map((b) => b === "?" ? "No board" : "Board " + visible(b)))) { const th = el("th", h); th.scope = "col"; hr.appendChild(th); }
    table.createTHead().appendChild(hr);
    const body = table.createTBody();
    for (const r of rounds) {
      const tr = el("tr");
      tr.dataset.round = r;
      const th = el("th", visible(r));
      th.scope = "row";
      tr.appendChild(th);
      for (const b of boards) {
        const td = el("td");
        // Two games on one board of a round are both shown: a duplicate is seen here.
        for (const g of games.filter((x) => (x.round || "?") === r && (x.board || "?") === b)) {
          td.appendChild(eventGameButton(g, isolated(g.black || "?") + " \u2013 " + isolated(g.white || "?")));
        }
        for (const p of lines.filter((x) => (x.round || "?") === r && (x.board || "?") === b)) td.appendChild(eventLine(p));
        tr.appendChild(td);
      }
      body.appendChild(tr);
    }
    const rounds_ = $("event-rounds");
    clear(rounds_);
    rounds_.appendChild(table);
    // Each player with their games, by round.
    const players = new Map();
    for (const g of games) {
      for (const [me, them] of [[g.black, g.white], [g.white, g.black]]) {
        if (!me) continue;
        if (!players.has(me)) players.set(me, []);
        players.get(me).push([g, them]);
      }
    }
    const list = $("event-players");
    clear(list);
    for (const name of [...players.keys()].sort(natural)) {
      const li = el("li");
      li.dataset.player = name;
      li.appendChild(bdi(name));
      li.appendChild(document.createTextNode(": "));
      const mine = players.get(name).sort((a, b) => place(a[0].round || "?", b[0].round || "?"));
      for (const [g, them] of mine) li.appendChild(eventGameButton(g, "round " + visible(g.round || "?") + " vs " + isolated(them || "?")));
      list.appendChild(li);
    }
    $("event-pane").scrollIntoView();
  } catch (e) { say(e.message, true); }
}

// ---- standings ----

async function showStandings() {
  try {
    const s = await api("GET", "/api/standings");
    $("standings-pane").hidden = false;
    const events = s.events;
    const only = events.length === 1 ? events[0] : null;
    $("standings-title").textContent = "Standings" + (only && only.event ? ": " + only.event : "");
    const problems = $("standings-problems");
    clear(problems);
    // The findings across games and the request's problems; each event's own problems
    // go beside its table.
    for (const p of s.problems) problems.appendChild(el("li", p));
    // Each finding with the games it names, each opened with one click.
    for (const f of s.findings) {
      const li = el("li", null, "finding");
      li.dataset.code = f.code;
      li.appendChild(el("pre", visibleLines(f.text)));
      for (const g of f.games) {
        const file = state.files.find((x) => x.id === g.file);
        const b = el("button", "open game " + g.game + (file ? " of " + isolated(file.served || file.name) : ""), "finding-game");
        b.type = "button";
        b.addEventListener("click", async () => {
          await showFile(g.file);
          await openGame(g.game);
          $("game-pane").scrollIntoView();
        });
        li.appendChild(b);
      }
      problems.appendChild(li);
    }
    const tables = $("standings-events");
    clear(tables);
    for (const e of events) {
      // Every event keeps its place and its table: an event the library cannot rank shows
      // what blocks it, in the table and beside it; the others are ranked all the same.
      const block = el("section", null, "standings-event");
      block.dataset.ranked = e.standings ? "yes" : "no";
      const title = el("h3");
      title.appendChild(bdi(e.event || "Standings"));
      if (!e.standings) title.appendChild(el("span", " (not ranked)", "refused"));
      block.appendChild(title);
      block.appendChild(standingsTable(e.standings, e.problems.length));
      if (e.problems.length) {
        block.appendChild(el("p", "What keeps " + (only ? "the event" : isolated(e.event || "this event")) + " from being ranked (the games named can be opened, repaired or their tags edited):", "note"));
        const ul = el("ul", null, "problems event-problems");
        for (const p of e.problems) ul.appendChild(el("li", p));
        block.appendChild(ul);
      }
      tables.appendChild(block);
    }
    if (events.length === 0) tables.appendChild(el("p", "no games with a result to rank", "note"));
    const notes = $("standings-notes");
    clear(notes);
    for (const n of s.notes) notes.appendChild(el("li", n));
    $("standings-pane").scrollIntoView();
  } catch (e) { say(e.message, true); }
}

// One event's table: a line per player, a column per round (the crosstable: each cell the
// round's opponent, colour and discs). Without standings (the event cannot be ranked), the
// same columns and one line saying so.
function standingsTable(st, problems) {
  const table = el("table");
  table.className = "standings-table";
  const head = table.createTHead();
  const hr = el("tr");
  const rounds = st ? st.rounds : [];
  for (const h of ["#", "Rank", "Player", "Points", "BQ", "Discs", "Games", "W", "D", "L", "Byes"].concat(rounds.map((r) => "Round " + r))) {
    const th = el("th", h);
    th.scope = "col";
    hr.appendChild(th);
  }
  head.appendChild(hr);
  const body = table.createTBody();
  if (!st) {
    const tr = el("tr", null, "blocked");
    const td = el("td", "not ranked: " + (problems === 1 ? "the problem below keeps" : "the " + problems + " problems below keep") + " the event from being ranked");
    td.colSpan = 11;
    tr.appendChild(td);
    body.appendChild(tr);
    return table;
  }
  for (const p of st.players) {
    const tr = el("tr");
    const cells = p.rounds.map((c) => (c ? c.text : ""));
    for (const v of [p.number, p.rank + (p.shared ? "=" : "")]) tr.appendChild(el("td", v));
    const name = el("td");
    name.appendChild(bdi(p.name));
    if (p.withdrawn) name.appendChild(document.createTextNode(" (withdrawn)"));
    tr.appendChild(name);
    for (const v of [p.points, p.bq, p.discs, p.games, p.wins, p.draws, p.losses, p.byes].concat(cells)) tr.appendChild(el("td", v));
    body.appendChild(tr);
  }
  return table;
}

// ---- wiring ----

function keys(event) {
  const t = event.target;
  if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) return;
  if (!state.game) return;
  const moves = { ArrowLeft: -1, ArrowRight: 1 };
  if (event.key in moves) { step(state.frame + moves[event.key]); event.preventDefault(); }
  else if (event.key === "Home") { step(0); event.preventDefault(); }
  else if (event.key === "End") { step(Infinity); event.preventDefault(); }
}

async function start() {
  const info = await api("GET", "/api/info");
  const select = $("export-format");
  for (const f of info.formats) { const o = el("option", f); o.value = f; select.appendChild(o); }
  select.value = "rgn";
  select.addEventListener("change", () => {
    resetExport();
    $("save-name").value = $("save-name").value.replace(/\.[^.]*$/, "") + "." + extension(select.value);
  });
  $("export-lossy").addEventListener("change", resetExport);
  $("export-check").addEventListener("click", checkExport);
  $("save-write").addEventListener("click", writeBeside);
  $("file-select").addEventListener("change", (e) => showFile(e.target.value));
  $("status-filter").addEventListener("change", (e) => { state.filter = e.target.value; state.offset = 0; loadList(); });
  let searching = null;
  $("player-search").addEventListener("input", (e) => {
    clearTimeout(searching);
    searching = setTimeout(() => { state.player = e.target.value; state.offset = 0; loadList(); }, 200);
  });
  $("page-prev").addEventListener("click", () => { state.offset = Math.max(0, state.offset - PAGE); loadList(); });
  $("page-next").addEventListener("click", () => { state.offset += PAGE; loadList(); });
  $("step-first").addEventListener("click", () => step(0));
  $("step-prev").addEventListener("click", () => step(state.frame - 1));
  $("step-next").addEventListener("click", () => step(state.frame + 1));
  $("step-last").addEventListener("click", () => step(Infinity));
  $("goto-fault").addEventListener("click", gotoFault);
  $("repair-find").addEventListener("click", findRepairs);
  $("tag-add").addEventListener("click", () => $("tags").tBodies[0].appendChild(tagRow("", "")));
  $("tags-save").addEventListener("click", saveTags);
  $("standings-show").addEventListener("click", showStandings);
  $("event-show").addEventListener("click", showEvent);
  $("standings-print").addEventListener("click", () => window.print());
  $("file-input").addEventListener("change", (e) => upload(e.target.files));
  $("file-pick").addEventListener("click", () => $("file-input").click());
  const zone = $("drop-zone");
  zone.addEventListener("dragover", (e) => { e.preventDefault(); zone.classList.add("over"); });
  zone.addEventListener("dragleave", () => zone.classList.remove("over"));
  zone.addEventListener("drop", (e) => { e.preventDefault(); zone.classList.remove("over"); upload(e.dataTransfer.files); });
  $("file-undo").addEventListener("click", () => travel(true));
  $("bulk-apply").addEventListener("click", setOnSelection);
  $("bulk-rename").addEventListener("click", renameOnSelection);
  $("select-all").addEventListener("change", (e) => {
    for (const p of document.querySelectorAll("#game-list tbody input.pick")) {
      p.checked = e.target.checked;
      const n = Number(p.closest("tr").dataset.index);
      if (p.checked) state.selected.add(n); else state.selected.delete(n);
    }
    selectionShown();
  });
  $("file-redo").addEventListener("click", () => travel(false));
  $("file-close").addEventListener("click", closeFile);
  document.addEventListener("keydown", keys);
  // Leaving with edits written nowhere: the browser asks first. (The server keeps them
  // while it runs; a reload of the page shows them again.)
  window.addEventListener("beforeunload", (e) => {
    if (state.files.some((f) => f.changed)) { e.preventDefault(); e.returnValue = ""; }
  });
  await loadFolder();
  // The server's loaded set, and the file and game the address names.
  const files = await refreshFiles();
  const wanted = new URLSearchParams(location.hash.slice(1));
  const id = Number(wanted.get("file"));
  const file = wanted.has("file") && files.find((f) => f.id === id) ? id : (files.length ? files[0].id : null);
  if (file !== null) {
    await showFile(file);
    const n = Number(wanted.get("game"));
    if (file === id && n > 0) await openGame(n);
  }
  document.body.dataset.ready = "yes";
}

start().catch((e) => say(e.message, true));
