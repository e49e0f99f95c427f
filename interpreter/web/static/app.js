// The ludeme playground's page: play on the board, write the rules, look at random games.
// Plain JavaScript, no libraries: every rule is judged by the server; this script draws what
// the server says and turns clicks into moves in notation.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const SVG_NS = "http://www.w3.org/2000/svg";
  const AGENTS = [["", "a person"], ["random", "random"], ["flat:200", "flat Monte Carlo 200"],
    ["mcts:300", "MCTS 300"], ["mcts:1000", "MCTS 1000"], ["mcts:3000", "MCTS 3000"]];

  let token = sessionStorage.getItem("ludeme-token");
  let games = [];
  let gameId = null;       // the listed game open
  let fileText = "";       // its text as the file has it
  let view = null;         // the last view the server sent
  let selection = [];      // sites clicked so far for a move of several sites
  let busy = false;        // a move or the computer's search is under way
  let aiPaused = false;    // the computer failed: wait for the person
  let declared = [];       // the options the editor's text declares
  let optionValues = {};   // the values chosen in the option controls
  let checkTimer = null;
  let checkSeq = 0;
  let played = { text: "", options: {} };  // the rules in play: their text and options
  const STORE = "ludeme-editor:";  // localStorage: the editor's text for each listed game
  const INTRO = "ludeme-intro-seen";  // localStorage: the introduction was dismissed
  const LINK_LIMIT = 60000;  // characters in a link that carries a game text
  const TEXT_LIMIT = 100000;  // characters in a game text (as the server allows)

  // The server ----------------------------------------------------------------------------
  async function api(path, body) {
    // X-Ludeme: the server serves state-changing requests to this page only (no form can send it)
    const init = { method: body === undefined ? "GET" : "POST", headers: { "X-Ludeme": "1" } };
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    if (token) init.headers["X-Session"] = token;
    let res;
    try {
      res = await fetch(path, init);
    } catch (err) {
      $("connection").textContent = "the server cannot be reached";
      throw new Error("the server cannot be reached");
    }
    $("connection").textContent = "";
    let data;
    try {
      data = await res.json();
    } catch (err) {
      data = { error: `the server answered ${res.status}` };
    }
    if (!res.ok) {
      if (res.status === 401 && data.expired) {
        await newSession();
        if (gameId) await openGame(gameId);
        throw new Error("the session had expired: the game was started again");
      }
      const error = new Error(data.error || `the server answered ${res.status}`);
      error.data = data;
      throw error;
    }
    return data;
  }

  async function newSession() {
    token = null;
    const data = await api("/api/session", {});
    token = data.token;
    sessionStorage.setItem("ludeme-token", token);
  }

  function say(text, kind) {
    const m = $("message");
    m.textContent = text || "";
    m.className = text ? (kind || "info") : "";
  }

  // Opening a game ------------------------------------------------------------------------
  // `resume`: also play the edited text kept for this game, if it was being played.
  async function openGame(id, resume) {
    const data = await api("/api/open", { id });
    gameId = id;
    fileText = data.rules.text;
    played = { text: fileText, options: Object.assign({}, data.rules.values || {}) };
    if (location.hash.slice(1) !== id) history.replaceState(null, "", "#" + id);
    setRules(data.rules);
    show(data.view);
    say("");
    const kept = keptEdits();
    if (kept) await useText(kept.text, kept.options || {}, resume && kept.playing);
  }

  // The game in play is a listed file, or an edited text: the menu, the title, "revert" and
  // the error notes say which.
  function edited() {
    return played.text !== fileText;
  }

  function listed() {
    return games.find((g) => g.id === gameId) || { title: "game", file: "the file" };
  }

  function showWhatIsPlayed() {
    const select = $("game-select");
    let option = $("edited-option");
    const g = listed();
    if (edited()) {
      if (!option) {
        option = document.createElement("option");
        option.id = "edited-option";
        option.value = "";
        select.appendChild(option);
      }
      option.textContent = `${g.title}: edited (from ${g.file})`;
      select.value = "";
    } else {
      if (option) option.remove();
      select.value = gameId || "";
    }
    $("revert").textContent = `Revert to ${g.file}`;
    document.body.dataset.edited = edited() ? "yes" : "no";
  }

  // The editor's text for this game, kept in the browser across reloads --------------------
  function keptEdits() {
    try {
      const kept = JSON.parse(localStorage.getItem(STORE + gameId) || "null");
      return kept && typeof kept.text === "string" && kept.text !== fileText ? kept : null;
    } catch (err) {
      return null;
    }
  }

  function keepEdits() {
    if (!gameId) return;
    const text = $("source").value;
    try {
      if (text === fileText) {
        localStorage.removeItem(STORE + gameId);
      } else {
        localStorage.setItem(STORE + gameId, JSON.stringify(
          { text, options: optionValues, playing: text === played.text }));
      }
    } catch (err) {  // storage full or turned off: the text is not kept
      $("check-state").textContent = "(this browser does not keep the text)";
    }
  }

  // Put a text in the editor with options; play it, or only check it.
  async function useText(text, options, play) {
    $("source").value = text;
    optionValues = Object.assign({}, options);
    declared = null;
    renderGutter();
    if (play) await playThis();
    else await checkNow();
  }

  // The rules now played: the editor's text, its options and their values.
  function setRules(rules) {
    $("source").value = rules.text;
    optionValues = Object.assign({}, rules.values || {});
    declared = null;  // the controls show these values, even for the same declarations
    if (rules.options) buildOptions(rules.options);
    renderGutter();
    showDiagnostics(rules.diagnostics || [], true);
  }

  // Playing -------------------------------------------------------------------------------
  function show(v) {
    view = v;
    selection = [];
    const board = $("board");
    board.innerHTML = v.svg;
    board.dataset.version = String(v.version);  // changes with every change of the game
    const svg = board.querySelector("svg");
    fitBoard(svg);
    drawSides(svg, v.sides || []);
    drawFigures(svg, v.figures || {});
    addHitAreas(svg);
    markWinning(svg, v.winning || []);
    $("game-title").textContent = `${v.name}${edited() ? " (edited)" : ""}: ` +
      v.players.join(" vs ");
    showWhatIsPlayed();
    const status = $("status");
    status.textContent = v.status + (v.stuck ? ` ${v.mover} has no legal move.` : "");
    status.className = v.over ? "over" : "";
    $("new-game").classList.toggle("after-end", !!v.over);
    showDice(v);
    showMoves(v.moves);
    $("pass").hidden = !v.can_pass;
    $("swap").hidden = !v.can_swap;
    $("undo").disabled = !v.can_undo;
    $("choices").textContent = "";
    if (document.activeElement !== $("position")) $("position").value = v.position;
    buildAgents(v);
    highlight();
    document.body.dataset.over = v.over ? "yes" : "no";
    maybeThink();
  }

  // The dice rolled and not yet used, as die faces; a new roll tumbles in.
  let lastRoll = "";
  function showDice(v) {
    const box = $("dice");
    const dice = v.dice || [];
    box.hidden = dice.length === 0;
    const faces = "\u2680\u2681\u2682\u2683\u2684\u2685";
    box.textContent = dice.map((d) => (d >= 1 && d <= 6 ? faces[d - 1] : String(d))).join(" ");
    const rolls = (v.moves || []).filter((m) => m.move.startsWith("roll:"));
    const roll = `${rolls.length}:${rolls.length ? rolls[rolls.length - 1].move : ""}`;
    if (dice.length && roll !== lastRoll) {
      box.classList.remove("rolled");
      void box.offsetWidth;  // restart the animation
      box.classList.add("rolled");
      box.title = `${rolls[rolls.length - 1].role} rolled ${rolls[rolls.length - 1].move.slice(5)}`;
    }
    lastRoll = roll;
  }

  // Small boards drawn larger; large ones (and the play pane) take the width there is.
  function fitBoard(svg) {
    if (!svg) return;
    const natural = parseFloat(svg.getAttribute("width")) || 400;
    const large = natural > 560 || svg.querySelectorAll(".cell").length > 100;
    document.querySelector("main").classList.toggle("wide", large);
    svg.style.maxWidth = large ? "none"
      : `${Math.round(Math.min(640, Math.max(380, 1.6 * natural)))}px`;
  }

  // The move list: one entry per turn (the decisions of one role in a row), numbered.
  function showMoves(moves) {
    const turns = [];
    for (const m of moves) {
      const last = turns[turns.length - 1];
      if (last && m.role && last.role === m.role) last.moves.push(m.move);
      else turns.push({ role: m.role, moves: [m.move] });
    }
    const list = $("moves");
    list.textContent = "";
    for (const turn of turns) {
      const li = document.createElement("li");
      li.textContent = `${turn.role} ${turn.moves.join(" ")}`.trim();
      list.appendChild(li);
    }
    list.scrollTop = list.scrollHeight;
  }

  // The sites that decided a finished game (a row, a connection), as the server found them.
  function markWinning(svg, sites) {
    if (!svg) return;
    for (const site of sites) {
      for (const el of svg.querySelectorAll(`[data-site="${CSS.escape(site)}"]`)) {
        if (el.matches(".cell, .piece")) el.classList.add("win");
      }
    }
  }

  // Each side a role must join, drawn in the role's colour along the board's outer edges:
  // an outer edge of a side's cell belongs to the side whose compass direction it faces.
  const COMPASS = { N: [0, -1], S: [0, 1], E: [1, 0], W: [-1, 0], NE: [0.71, -0.71],
    NW: [-0.71, -0.71], SE: [0.71, 0.71], SW: [-0.71, 0.71] };

  function drawSides(svg, sides) {
    if (!svg || !sides.length) return;
    const bySite = new Map();
    for (const side of sides) {
      for (const site of side.sites) {
        if (!bySite.has(site)) bySite.set(site, []);
        bySite.get(site).push(side);
      }
    }
    const edges = [];
    const near = new Map();  // edges by their midpoint, rounded: to find the shared ones
    const bucket = (x, y) => `${Math.round(x / 4)},${Math.round(y / 4)}`;
    for (const cell of svg.querySelectorAll("polygon.cell")) {
      const site = cell.getAttribute("data-site");
      const pts = cell.getAttribute("points").trim().split(/\s+/)
        .map((p) => p.split(",").map(Number));
      const cx = pts.reduce((a, p) => a + p[0], 0) / pts.length;
      const cy = pts.reduce((a, p) => a + p[1], 0) / pts.length;
      pts.forEach(([x1, y1], i) => {
        const [x2, y2] = pts[(i + 1) % pts.length];
        const e = { site, x1, y1, x2, y2, mx: (x1 + x2) / 2, my: (y1 + y2) / 2, cx, cy };
        edges.push(e);
        const key = bucket(e.mx, e.my);
        if (!near.has(key)) near.set(key, []);
        near.get(key).push(e);
      });
    }
    const shared = (e) => {
      const bx = Math.round(e.mx / 4), by = Math.round(e.my / 4);
      for (let dx = -1; dx <= 1; dx++) {
        for (let dy = -1; dy <= 1; dy++) {
          for (const o of near.get(`${bx + dx},${by + dy}`) || []) {
            if (o.site !== e.site && Math.hypot(o.mx - e.mx, o.my - e.my) < 1.5) return true;
          }
        }
      }
      return false;
    };
    const group = document.createElementNS(SVG_NS, "g");
    group.setAttribute("class", "sides");
    for (const e of edges) {
      const mine = bySite.get(e.site);
      if (!mine || shared(e)) continue;
      const length = Math.hypot(e.mx - e.cx, e.my - e.cy) || 1;
      const nx = (e.mx - e.cx) / length, ny = (e.my - e.cy) / length;
      let best = null, most = 0.2;
      for (const side of mine) {
        const d = COMPASS[side.side];
        if (d && nx * d[0] + ny * d[1] > most) {
          best = side;
          most = nx * d[0] + ny * d[1];
        }
      }
      if (!best) continue;
      const line = document.createElementNS(SVG_NS, "line");
      line.setAttribute("class", "side-edge");
      line.dataset.role = best.role;
      line.dataset.side = best.side;
      for (const [k, v] of [["x1", e.x1], ["y1", e.y1], ["x2", e.x2], ["y2", e.y2]]) {
        line.setAttribute(k, String(v));
      }
      line.setAttribute("stroke", best.colour);
      line.setAttribute("stroke-width", "6");
      line.setAttribute("stroke-linecap", "round");
      group.appendChild(line);
    }
    const cells = svg.querySelectorAll("polygon.cell, polygon.terrain");
    cells[cells.length - 1].after(group);
  }

  // Chess-like pieces as figures: the server names their kinds (K, Q, R, B, N, P).
  const FIGURES = { K: "\u265A", Q: "\u265B", R: "\u265C", B: "\u265D", N: "\u265E",
    P: "\u265F" };

  function dark(colour) {
    const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(colour || "");
    if (!m) return true;
    const [r, g, b] = m.slice(1).map((h) => parseInt(h, 16));
    return 0.299 * r + 0.587 * g + 0.114 * b < 128;
  }

  function drawFigures(svg, figures) {
    if (!svg) return;
    for (const disc of svg.querySelectorAll("circle.piece")) {
      const kind = figures[disc.getAttribute("data-piece")];
      if (!kind || !FIGURES[kind]) continue;
      const letter = disc.nextElementSibling;
      if (letter && letter.matches("text.symbol")) letter.remove();
      const fill = disc.getAttribute("fill");
      const r = parseFloat(disc.getAttribute("r")) || 14;
      const figure = document.createElementNS(SVG_NS, "text");
      figure.setAttribute("class", "figure");
      figure.dataset.kind = kind;
      figure.setAttribute("x", disc.getAttribute("cx"));
      figure.setAttribute("y", String(parseFloat(disc.getAttribute("cy")) + r * 0.08));
      figure.setAttribute("font-size", String(r * 2.3));
      figure.setAttribute("text-anchor", "middle");
      figure.setAttribute("dominant-baseline", "central");
      figure.setAttribute("fill", fill);
      figure.setAttribute("stroke", dark(fill) ? "#d8d8d8" : "#222222");
      figure.setAttribute("stroke-width", String(r * 0.09));
      figure.textContent = FIGURES[kind] + "\uFE0E";  // as text, not an emoji
      disc.classList.add("figure-disc");
      disc.after(figure);
    }
  }

  // On a board of points the points are small: give each a larger, invisible target.
  function addHitAreas(svg) {
    if (!svg) return;
    for (const point of svg.querySelectorAll("circle.cell.point")) {
      const hit = document.createElementNS(SVG_NS, "circle");
      hit.setAttribute("class", "hit");
      hit.setAttribute("data-site", point.getAttribute("data-site"));
      hit.setAttribute("cx", point.getAttribute("cx"));
      hit.setAttribute("cy", point.getAttribute("cy"));
      hit.setAttribute("r", String(parseFloat(point.getAttribute("r")) * 3.2));
      svg.appendChild(hit);
    }
  }

  function legalWithSites() {
    return view && !view.over ? view.legal.filter((m) => m.s.length > 0) : [];
  }

  function sameSet(a, b) {
    return a.length === b.length && b.every((s) => a.includes(s));
  }

  // Does move m use the sites chosen so far (in order, for a move from-to)?
  function consistent(m, chosen) {
    if (m.k === "move") return chosen.every((s, i) => m.s[i] === s);
    return chosen.every((s) => m.s.includes(s));
  }

  function exactly(m, chosen) {
    return m.k === "move" ? m.s.length === chosen.length && consistent(m, chosen)
      : sameSet(m.s, chosen);
  }

  function highlight() {
    const svg = $("board").querySelector("svg");
    if (!svg) return;
    for (const el of svg.querySelectorAll(".target, .movable, .selected")) {
      el.classList.remove("target", "movable", "selected");
    }
    const mark = (site, cls) => {
      for (const el of svg.querySelectorAll(`[data-site="${CSS.escape(site)}"]`)) {
        if (el.matches(".cell, .piece, .hit")) el.classList.add(cls);
      }
    };
    const legal = legalWithSites();
    if (busy) return;
    if (!selection.length) {
      for (const m of legal) {
        if (m.s.length === 1) mark(m.s[0], "target");
        else if (m.k === "move") mark(m.s[0], "movable");
        else for (const s of m.s) mark(s, m.k === "exchange" ? "movable" : "target");
      }
      return;
    }
    for (const s of selection) mark(s, "selected");
    for (const m of legal) {
      if (m.s.length > selection.length && consistent(m, selection)) {
        for (const s of m.s) if (!selection.includes(s)) mark(s, "target");
      }
    }
  }

  function hasPiece(site) {
    return !!$("board").querySelector(`.piece[data-site="${CSS.escape(site)}"]`);
  }

  function clickSite(site) {
    if (view && view.over) {
      say(`the game is over (${view.status}); New game starts another`, "info");
      return;
    }
    if (busy || !view) return;
    say("");
    $("choices").textContent = "";
    const legal = legalWithSites();
    if (selection.length) {
      if (selection.includes(site)) {
        selection = selection.filter((s) => s !== site);
        highlight();
        return;
      }
      const chosen = [...selection, site];
      const exact = legal.filter((m) => exactly(m, chosen));
      const longer = legal.filter((m) => m.s.length > chosen.length && consistent(m, chosen));
      if (exact.length && !longer.length) return choose(exact);
      if (exact.length || longer.length) {
        selection = chosen;
        highlight();
        if (exact.length) offer(exact);
        return;
      }
      if (startsMoves(site, legal)) return select(site, legal);
      const moving = legal.some((m) => m.k === "move") && selection.length === 1;
      const text = moving ? `${selection[0]}-${site}` : chosen.join(",");
      selection = [];
      highlight();
      return submit(text);
    }
    const single = legal.filter((m) => m.s.length === 1 && m.s[0] === site);
    if (single.length && !startsMoves(site, legal)) return choose(single);
    if (startsMoves(site, legal)) return select(site, legal);
    if (hasPiece(site) && legal.some((m) => m.k === "move")) {
      // A piece with nowhere to go: the next click asks the server why.
      selection = [site];
      highlight();
      say(`${site} selected: click where it should go`, "info");
      return;
    }
    return submit(site);
  }

  function startsMoves(site, legal) {
    return legal.some((m) => m.s.length > 1 && (m.k === "move" ? m.s[0] === site
      : m.s.includes(site)));
  }

  function select(site, legal) {
    selection = [site];
    highlight();
    const single = legal.filter((m) => m.s.length === 1 && m.s[0] === site);
    if (single.length) offer(single);
  }

  // Several moves fit the clicks (a promotion's pieces, a placement that may grow): buttons.
  function offer(moves) {
    const box = $("choices");
    box.textContent = "";
    for (const m of moves) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "choice";
      b.textContent = `Play ${m.n}`;
      b.addEventListener("click", () => submit(m.n));
      box.appendChild(b);
    }
  }

  function choose(moves) {
    if (moves.length === 1) return submit(moves[0].n);
    offer(moves);
  }

  async function submit(text) {
    if (busy) return;
    busy = true;
    selection = [];
    try {
      const data = await api("/api/play", { move: text });
      busy = false;
      aiPaused = false;
      show(data.view);
    } catch (err) {
      busy = false;
      highlight();
      say(err.message, "error");
    }
  }

  async function action(path, body) {
    if (busy) return;
    busy = true;
    try {
      const data = await api(path, body || {});
      busy = false;
      aiPaused = false;
      show(data.view);
      return data;
    } catch (err) {
      busy = false;
      say(err.message, "error");
    }
  }

  // The computer --------------------------------------------------------------------------
  function buildAgents(v) {
    const box = $("agents");
    const key = v.players.join("|");
    if (box.dataset.players !== key) {
      box.textContent = "";
      box.dataset.players = key;
      for (const role of v.players) {
        const label = document.createElement("label");
        label.textContent = `${role}: `;
        const select = document.createElement("select");
        select.dataset.role = role;
        select.setAttribute("aria-label", `who plays ${role}`);
        for (const [spec, name] of AGENTS) {
          const o = document.createElement("option");
          o.value = spec;
          o.textContent = name;
          select.appendChild(o);
        }
        select.addEventListener("change", () => {
          aiPaused = false;
          action("/api/agent", { role, agent: select.value });
        });
        label.appendChild(select);
        box.appendChild(label);
      }
    }
    for (const select of box.querySelectorAll("select")) {
      const spec = v.agents[select.dataset.role] || "";
      if (![...select.options].some((o) => o.value === spec)) {
        const o = document.createElement("option");
        o.value = spec;
        o.textContent = spec;
        select.appendChild(o);
      }
      select.value = spec;
    }
  }

  async function maybeThink() {
    if (!view || busy || aiPaused || !view.ai_to_move) return;
    if (view.thinking) {  // another request of this session is already searching
      setTimeout(async () => {
        try {
          show((await api("/api/view", {})).view);
        } catch (err) {
          say(err.message, "error");
        }
      }, 500);
      return;
    }
    busy = true;
    $("thinking").hidden = false;
    $("thinking-text").textContent = `${view.mover} is thinking…`;
    $("board").classList.add("busy");
    highlight();
    try {
      const data = await api("/api/think", {});
      finishThinking();
      show(data.view);
      if (data.said) say(data.said, "info");
    } catch (err) {
      finishThinking();
      aiPaused = true;
      highlight();
      say(err.message, "error");
    }
  }

  function finishThinking() {
    busy = false;
    $("thinking").hidden = true;
    $("board").classList.remove("busy");
  }

  // Positions and records -----------------------------------------------------------------
  async function copyPosition() {
    const text = $("position").value;
    try {
      await navigator.clipboard.writeText(text);
      say("position text copied", "info");
    } catch (err) {
      $("position").select();
      say("select the text and copy it (the clipboard is not available)", "info");
    }
  }

  async function saveRecord() {
    try {
      const data = await api("/api/record/save", {});
      $("record-text").value = data.text;
      const url = URL.createObjectURL(new Blob([data.text], { type: "text/plain" }));
      const a = document.createElement("a");
      a.href = url;
      a.download = data.name;
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
      say(`record saved as ${data.name}`, "info");
    } catch (err) {
      say(err.message, "error");
    }
  }

  async function loadRecord(text) {
    const data = await action("/api/record/load", { text });
    if (data && data.rules) {
      const file = data.view.file_id;
      if (file && file !== gameId) {
        gameId = file;
        fileText = games.find((g) => g.id === file) ? data.rules.text : fileText;
        history.replaceState(null, "", "#" + file);
      }
      played = { text: data.rules.text, options: Object.assign({}, data.rules.values || {}) };
      setRules(data.rules);
      show(data.view);
      keepEdits();
      say(`record loaded: ${data.view.moves.length} moves`, "info");
    }
  }

  // The editor ----------------------------------------------------------------------------
  function renderGutter() {
    const lines = $("source").value.split("\n").length;
    const gutter = $("gutter");
    if (gutter.childElementCount !== lines) {
      gutter.textContent = "";
      for (let i = 1; i <= lines; i++) {
        const span = document.createElement("span");
        span.textContent = String(i);
        span.dataset.line = String(i);
        gutter.appendChild(span);
      }
    }
    gutter.scrollTop = $("source").scrollTop;
    if (window.ludemeEditor) window.ludemeEditor.refresh();  // the highlighted copy
  }

  function scheduleCheck() {
    keepEdits();
    clearTimeout(checkTimer);
    $("check-state").textContent = "checking…";
    $("check-state").className = "note";
    checkTimer = setTimeout(checkNow, 350);
  }

  async function checkNow() {
    const seq = ++checkSeq;
    try {
      const data = await api("/api/check", { text: $("source").value, options: optionValues });
      if (seq !== checkSeq) return;
      if (data.options) buildOptions(data.options);
      showDiagnostics(data.diagnostics, data.ok);
    } catch (err) {
      if (seq === checkSeq) $("check-state").textContent = err.message;
    }
  }

  // A message about the editor's text names it "edited" once it is not the file's text.
  function named(text) {
    const file = listed().file;
    if (!text || $("source").value === fileText || !text.includes(file)) return text;
    return text.split(`${file}:`).join("edited:").split(file).join("the edited text");
  }

  function showDiagnostics(diagnostics, ok) {
    const list = $("diagnostics");
    list.textContent = "";
    for (const span of $("gutter").querySelectorAll("span")) {
      span.classList.remove("error", "warning");
      span.removeAttribute("title");
    }
    let errors = 0;
    for (const d of diagnostics) {
      if (d.severity === "error") errors++;
      const li = document.createElement("li");
      li.className = d.severity === "error" ? "error" : "warning";
      li.dataset.line = String(d.line);
      li.dataset.column = String(d.column);
      const where = document.createElement("span");
      where.className = "where";
      where.textContent = d.here ? `line ${d.line}, column ${d.column}:` : "in the library:";
      li.appendChild(where);
      li.appendChild(document.createTextNode(
        (d.severity === "error" ? "" : `${d.severity}: `) + named(d.message)));
      if (d.note) {
        const note = document.createElement("span");
        note.className = "diag-note";
        note.textContent = `note: ${named(d.note)}`;
        li.appendChild(note);
      }
      li.addEventListener("click", () => goTo(d.line, d.column, d.end_line, d.end_column));
      list.appendChild(li);
      const mark = $("gutter").querySelector(`span[data-line="${d.line}"]`);
      if (d.here && mark) {
        mark.classList.add(li.className);
        mark.title = (mark.title ? mark.title + "\n" : "") + `${d.column}: ${named(d.message)}`;
      }
    }
    const state = $("check-state");
    if (ok && !errors) {
      state.textContent = "✓ no errors";
      state.className = "note ok";
    } else {
      state.textContent = `${errors} error${errors === 1 ? "" : "s"}`;
      state.className = "note bad";
    }
  }

  // Put the caret at a line and column of the editor (and select to the end of the span).
  function goTo(line, column, endLine, endColumn) {
    const source = $("source");
    const lines = source.value.split("\n");
    const offset = (l, c) => {
      let n = 0;
      for (let i = 0; i < Math.min(l - 1, lines.length); i++) n += lines[i].length + 1;
      return n + Math.max(0, c - 1);
    };
    const start = offset(line, column);
    const end = endLine === line && endColumn > column ? offset(endLine, endColumn) : start;
    source.focus();
    source.setSelectionRange(start, end);
    source.scrollTop = Math.max(0, (line - 5) * 18);
    renderGutter();
  }

  // One control per declared option, keeping the values chosen where they still fit.
  function buildOptions(options) {
    if (JSON.stringify(options) === JSON.stringify(declared)) return;
    declared = options;
    const box = $("options");
    box.textContent = "";
    const kept = {};
    for (const o of options) {
      const label = document.createElement("label");
      label.title = o.doc || "";
      label.appendChild(document.createTextNode(o.name));
      let input;
      const value = o.name in optionValues ? optionValues[o.name] : o.default;
      if (o.choices) {
        input = document.createElement("select");
        for (const c of o.choices) {
          const opt = document.createElement("option");
          opt.value = JSON.stringify(c);
          opt.textContent = String(c);
          input.appendChild(opt);
        }
        input.value = JSON.stringify(o.choices.includes(value) ? value : o.default);
        kept[o.name] = JSON.parse(input.value);
        input.addEventListener("change", () => setOption(o.name, JSON.parse(input.value)));
      } else if (o.kind === "bool") {
        input = document.createElement("input");
        input.type = "checkbox";
        input.checked = value === true;
        kept[o.name] = input.checked;
        input.addEventListener("change", () => setOption(o.name, input.checked));
      } else if (o.kind === "int" || o.kind === "float") {
        input = document.createElement("input");
        input.type = "number";
        if (o.min !== null) input.min = String(o.min);
        if (o.max !== null) input.max = String(o.max);
        input.step = o.kind === "int" ? "1" : "any";
        input.value = String(typeof value === "number" ? value : o.default);
        kept[o.name] = Number(input.value);
        input.addEventListener("change", () => {
          const n = Number(input.value);
          setOption(o.name, input.value === "" || Number.isNaN(n) ? input.value : n);
        });
      } else {
        input = document.createElement("input");
        input.value = String(value);
        kept[o.name] = input.value;
        input.addEventListener("change", () => setOption(o.name, input.value));
      }
      input.name = o.name;
      input.dataset.option = o.name;
      label.appendChild(input);
      box.appendChild(label);
    }
    optionValues = kept;
  }

  function setOption(name, value) {
    optionValues[name] = value;
    scheduleCheck();
  }

  async function playThis() {
    clearTimeout(checkTimer);
    const text = $("source").value;
    try {
      const data = await api("/api/restart", { text, options: optionValues });
      aiPaused = false;
      played = { text, options: Object.assign({}, data.rules.values || {}) };
      show(data.view);
      keepEdits();
      if (data.rules.options) buildOptions(data.rules.options);
      showDiagnostics(data.rules.diagnostics, true);
      say(`playing the rules in the editor (${Object.entries(data.view.options)
        .map(([k, v]) => `${k}=${v}`).join(", ") || "no options"})`, "info");
    } catch (err) {
      if (err.data && err.data.diagnostics) showDiagnostics(err.data.diagnostics, false);
      say(err.message, "error");
    }
  }

  // The rules in play from their start again (after the end, or at any time).
  async function newGame() {
    if (!played.text) return;
    const data = await action("/api/restart", { text: played.text, options: played.options });
    if (data) say("a new game", "info");
  }

  // Links that carry a game text ---------------------------------------------------------
  // #id=GAME&game=CODE&options=JSON: CODE is "z" and the text deflated, or "t" and the text,
  // as base64url (CompressionStream where the browser has it).
  function toBase64Url(bytes) {
    let s = "";
    for (const b of bytes) s += String.fromCharCode(b);
    return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  function fromBase64Url(text) {
    const s = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
    return Uint8Array.from(s, (c) => c.charCodeAt(0));
  }

  // The bytes through a (de)compression stream, refusing more than `limit` of them.
  async function through(stream, bytes, limit) {
    const reader = new Blob([bytes]).stream().pipeThrough(stream).getReader();
    const parts = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > limit) {
        reader.cancel();
        throw new Error(`the text is longer than ${limit} bytes`);
      }
      parts.push(value);
    }
    const out = new Uint8Array(size);
    let at = 0;
    for (const part of parts) {
      out.set(part, at);
      at += part.length;
    }
    return out;
  }

  async function encodeText(text) {
    const bytes = new TextEncoder().encode(text);
    if (typeof CompressionStream !== "function") return "t" + toBase64Url(bytes);
    return "z" + toBase64Url(await through(new CompressionStream("deflate-raw"), bytes,
      4 * bytes.length + 1024));
  }

  async function decodeText(code) {
    const bytes = fromBase64Url(code.slice(1));
    if (code[0] === "t") return new TextDecoder().decode(bytes);
    if (code[0] !== "z") throw new Error("it is not a game text");
    if (typeof DecompressionStream !== "function") {
      throw new Error("this browser cannot read a compressed text");
    }
    return new TextDecoder().decode(await through(new DecompressionStream("deflate-raw"), bytes,
      4 * TEXT_LIMIT));
  }

  async function shareLink() {
    const params = new URLSearchParams();
    params.set("id", gameId || "");
    params.set("game", await encodeText($("source").value));
    params.set("options", JSON.stringify(optionValues));
    const link = `${location.origin}${location.pathname}#${params}`;
    const box = $("share-link");
    if (link.length > LINK_LIMIT) {
      box.hidden = true;
      say(`the text is too long for a link (${link.length} characters, at most ${LINK_LIMIT}): ` +
        "save it as a file instead", "error");
      return;
    }
    box.hidden = false;
    box.value = link;
    box.select();
    try {
      await navigator.clipboard.writeText(link);
      say("link copied: it carries the rules in the editor and their options", "info");
    } catch (err) {
      say("the link is below the editor: copy it", "info");
    }
  }

  // A link's game: parts of the fragment, or null when it is a plain game id.
  function linkIn(hash) {
    if (!hash.includes("=")) return null;
    const params = new URLSearchParams(hash);
    return { id: params.get("id") || "", game: params.get("game"),
      options: params.get("options") };
  }

  async function openLink(link) {
    let text, options;
    try {
      text = await decodeText(link.game || "");
      options = link.options ? JSON.parse(link.options) : {};
      if (!options || typeof options !== "object" || Array.isArray(options)) options = {};
    } catch (err) {
      say(`the link's game text cannot be read: ${err.message}`, "error");
      return;
    }
    await useText(text, options, true);
    keepEdits();
  }

  // The introduction, until it is dismissed (remembered in this browser).
  function showIntro() {
    let seen = false;
    try {
      seen = localStorage.getItem(INTRO) === "yes";
    } catch (err) {
      seen = false;
    }
    $("intro").hidden = seen;
  }

  function closeIntro() {
    $("intro").hidden = true;
    try {
      localStorage.setItem(INTRO, "yes");
    } catch (err) {  // not remembered: it shows again next time
    }
  }

  // Looking: random games -----------------------------------------------------------------
  async function validate(event) {
    event.preventDefault();
    const n = Number($("playouts").value) || 100;
    const box = $("report");
    box.innerHTML = '<p><span class="spinner"></span> playing random games…</p>';
    $("validate").disabled = true;
    try {
      const data = await api("/api/validate", {
        text: $("source").value, options: optionValues, n, seed: 1,
      });
      renderReport(data.report);
    } catch (err) {
      box.textContent = "";
      const p = document.createElement("p");
      p.className = "problem";
      p.textContent = err.message;
      box.appendChild(p);
      if (err.data && err.data.diagnostics) showDiagnostics(err.data.diagnostics, false);
    } finally {
      $("validate").disabled = false;
    }
  }

  const pct = (x) => `${(100 * x).toFixed(1)}%`;

  function el(tag, text, cls) {
    const e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  }

  function renderReport(r) {
    const box = $("report");
    box.textContent = "";
    let head = `${r.games} random games of ${r.game} (seed ${r.seed}), ` +
      `${r.seconds.toFixed(r.seconds < 1 ? 2 : 1)} s`;
    if (r.stopped_early) head += ` — stopped early: ${r.played} of ${r.requested} played`;
    if (r.capped) head += ` (at most ${r.requested} at once)`;
    box.appendChild(el("p", head));
    const table = el("table");
    table.className = "rates";
    const row = (cells, header) => {
      const tr = el("tr");
      cells.forEach((c, i) => tr.appendChild(el(header ? "th" : "td", c, i && !header ? "num"
        : "")));
      table.appendChild(tr);
    };
    row(["", "games", "rate", "95% interval"], true);
    for (const x of r.roles) {
      row([`${x.role} wins`, String(x.count), pct(x.rate), `${pct(x.low)} – ${pct(x.high)}`]);
    }
    row(["draws", String(r.draws.count), pct(r.draws.rate),
      `${pct(r.draws.low)} – ${pct(r.draws.high)}`]);
    box.appendChild(table);
    box.appendChild(rateChart([
      ...r.roles.map((x) => ({ label: `${x.role} wins`, ...x })),
      { label: "draws", draws: true, ...r.draws }]));
    box.appendChild(el("p", `length: mean ${r.length.mean.toFixed(1)}, min ${r.length.min}, ` +
      `max ${r.length.max} turns`));
    if (r.length.histogram.length) box.appendChild(histogram(r.length.histogram));
    const endings = el("ul");
    for (const e of r.endings) endings.appendChild(el("li", `ended by ${e.reason}: ${e.count}`));
    for (const reason of r.never) {
      endings.appendChild(el("li", `never ended a game: ${reason}`, "warning never"));
    }
    box.appendChild(endings);
    if (r.bound_hits) {
      box.appendChild(el("p", `${r.bound_hits} games hit the length bound (${r.bound} ` +
        "decisions) without ending", "warning"));
    }
    if (r.stuck.count) {
      const stuck = el("div", undefined, "stuck");
      stuck.appendChild(el("p", `${r.stuck.count} games reached a position where the player ` +
        "to move had no legal move and the game was not over; the first:", "problem"));
      const picture = el("div");
      picture.innerHTML = r.stuck.svg;  // drawn by the server from the position
      stuck.appendChild(picture);
      stuck.appendChild(el("pre", r.stuck.text));
      box.appendChild(stuck);
    }
    if (r.crashes.count) {
      box.appendChild(el("p", `${r.crashes.count} games crashed; the first:`, "problem"));
      box.appendChild(el("pre", r.crashes.first));
    }
  }

  // Charts: inline SVG with axes, ticks and titles ---------------------------------------
  function svgEl(tag, attrs, text) {
    const e = document.createElementNS(SVG_NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function chart(cls, width, height, label) {
    return svgEl("svg", { class: `chart ${cls}`, width, height, viewBox: `0 0 ${width} ${height}`,
      role: "img", "aria-label": label });
  }

  // The x and y axes of a plot from (left, top) to (right, base), and the x axis's title
  // under its labels.
  function axes(svg, left, top, right, base, title) {
    svg.appendChild(svgEl("line", { class: "axis-line x-axis", x1: left, y1: base, x2: right,
      y2: base }));
    svg.appendChild(svgEl("line", { class: "axis-line y-axis", x1: left, y1: top, x2: left,
      y2: base }));
    svg.appendChild(svgEl("text", { class: "axis-title", x: (left + right) / 2, y: base + 30,
      "text-anchor": "middle" }, title));
  }

  // Whole numbers from 0 to `most` for an axis: at most five of them.
  function ticks(most) {
    const step = Math.max(1, Math.ceil(most / 4));
    const out = [];
    for (let v = 0; v <= most; v += step) out.push(v);
    if (out[out.length - 1] < most) out.push(out[out.length - 1] + step);
    return out;
  }

  // Game lengths: one bar per bin, its height the number of games; both axes labelled.
  function histogram(bins) {
    const width = 400, height = 190, left = 44, right = 10, top = 10, bottom = 42;
    const svg = chart("histogram", width, height, "histogram of game lengths");
    const plotW = width - left - right, plotH = height - top - bottom, base = top + plotH;
    const scale = ticks(Math.max(...bins.map((b) => b.count), 1));
    const most = scale[scale.length - 1];
    for (const v of scale) {
      const y = base - plotH * v / most;
      svg.appendChild(svgEl("line", { class: "axis-line tick", x1: left - 4, y1: y, x2: left,
        y2: y }));
      svg.appendChild(svgEl("text", { class: "axis y-label", x: left - 6, y: y + 3,
        "text-anchor": "end" }, String(v)));
    }
    const w = plotW / bins.length;
    const every = Math.ceil(bins.length / 8);  // at most eight labels under the bars
    bins.forEach((b, i) => {
      const h = plotH * b.count / most;
      const bar = svgEl("rect", { class: "bar", x: left + i * w + 1, y: base - h,
        width: Math.max(1, w - 2), height: h });
      bar.appendChild(svgEl("title", {}, `${b.low === b.high ? b.low : `${b.low}–${b.high}`} ` +
        `turns: ${b.count} games`));
      svg.appendChild(bar);
      if (i % every === 0) {
        svg.appendChild(svgEl("text", { class: "axis x-label", x: left + i * w + w / 2,
          y: base + 13, "text-anchor": "middle" }, String(b.low)));
      }
    });
    axes(svg, left, top, width - right, base, "game length (turns)");
    svg.appendChild(svgEl("text", { class: "axis-title", x: 12, y: top + plotH / 2,
      "text-anchor": "middle", transform: `rotate(-90 12 ${top + plotH / 2})` }, "games"));
    return svg;
  }

  // Win rates by role (and draws): a bar for the rate, a line for its 95% interval.
  function rateChart(rows) {
    const rowH = 24, left = 90, right = 16, top = 8, bottom = 40, width = 400;
    const height = top + rows.length * rowH + bottom;
    const svg = chart("rates-chart", width, height, "win rates by role with 95% intervals");
    const plotW = width - left - right, base = top + rows.length * rowH;
    const x = (rate) => left + plotW * rate;
    for (const v of [0, 0.25, 0.5, 0.75, 1]) {
      svg.appendChild(svgEl("line", { class: "axis-line tick", x1: x(v), y1: base, x2: x(v),
        y2: base + 4 }));
      svg.appendChild(svgEl("text", { class: "axis x-label", x: x(v), y: base + 15,
        "text-anchor": "middle" }, `${100 * v}%`));
    }
    rows.forEach((r, i) => {
      const y = top + i * rowH;
      svg.appendChild(svgEl("text", { class: "axis y-label", x: left - 6, y: y + rowH / 2 + 4,
        "text-anchor": "end" }, r.label));
      const bar = svgEl("rect", { class: `bar${r.draws ? " draws" : ""}`, x: left, y: y + 5,
        width: Math.max(0.5, plotW * r.rate), height: rowH - 10 });
      bar.appendChild(svgEl("title", {}, `${r.label}: ${pct(r.rate)} (95% interval ` +
        `${pct(r.low)} – ${pct(r.high)})`));
      svg.appendChild(bar);
      const mid = y + rowH / 2;
      svg.appendChild(svgEl("line", { class: "interval", x1: x(r.low), y1: mid, x2: x(r.high),
        y2: mid }));
      for (const end of [r.low, r.high]) {
        svg.appendChild(svgEl("line", { class: "interval", x1: x(end), y1: mid - 5, x2: x(end),
          y2: mid + 5 }));
      }
    });
    axes(svg, left, top, width - right, base,
      "share of games (bar) and its 95% interval (line)");
    return svg;
  }

  // Wiring --------------------------------------------------------------------------------
  function bind() {
    $("board").addEventListener("click", (event) => {
      const target = event.target.closest("[data-site]");
      if (target) clickSite(target.getAttribute("data-site"));
    });
    $("undo").addEventListener("click", () => action("/api/undo"));
    $("new-game").addEventListener("click", newGame);
    $("share").addEventListener("click", () => {
      shareLink().catch((err) => say(err.message, "error"));
    });
    $("intro-close").addEventListener("click", closeIntro);
    $("pass").addEventListener("click", () => submit("pass"));
    $("swap").addEventListener("click", () => submit("swap"));
    $("move-form").addEventListener("submit", (event) => {
      event.preventDefault();
      const text = $("move-input").value.trim();
      if (text) submit(text).then(() => { $("move-input").value = ""; });
    });
    $("game-select").addEventListener("change", () => {
      const id = $("game-select").value;
      if (id) openGame(id, false).catch((err) => say(err.message, "error"));
    });
    $("copy-position").addEventListener("click", copyPosition);
    $("load-position").addEventListener("click", () => {
      action("/api/position", { text: $("position").value });
    });
    $("save-record").addEventListener("click", saveRecord);
    $("record-file").addEventListener("change", () => {
      const file = $("record-file").files[0];
      if (!file) return;
      const reader = new FileReader();
      reader.onload = () => loadRecord(String(reader.result));
      reader.readAsText(file);
      $("record-file").value = "";
    });
    $("load-record").addEventListener("click", () => loadRecord($("record-text").value));
    const source = $("source");
    source.addEventListener("input", () => {
      renderGutter();
      scheduleCheck();
    });
    source.addEventListener("scroll", () => { $("gutter").scrollTop = source.scrollTop; });
    source.addEventListener("keydown", (event) => {
      if (event.key === "Tab" && !event.shiftKey) {  // indent rather than leave the editor
        event.preventDefault();
        window.ludemeEditor.insert("  ");  // as typed: undo knows it; the input event follows
      }
    });
    $("play-this").addEventListener("click", playThis);
    $("revert").addEventListener("click", () => {
      source.value = fileText;
      renderGutter();
      scheduleCheck();
    });
    $("share-link").addEventListener("focus", () => $("share-link").select());
    $("validate-form").addEventListener("submit", validate);
  }

  async function init() {
    bind();
    showIntro();
    try {
      if (!token) await newSession();
      games = (await api("/api/games")).games;
      const select = $("game-select");
      for (const g of games) {
        const o = document.createElement("option");
        o.value = g.id;
        o.textContent = `${g.title} (${g.file})`;
        select.appendChild(o);
      }
      const link = linkIn(location.hash.slice(1));
      const wanted = link ? link.id : decodeURIComponent(location.hash.slice(1));
      const first = games.find((g) => g.id === wanted) || games[0];
      if (first) {
        try {
          await openGame(first.id, !link);
        } catch (err) {  // an old token the server no longer knows: api() made a new one
          if (!gameId) await openGame(first.id, !link);
        }
        if (link && link.game) await openLink(link);
      }
      document.body.dataset.ready = "yes";
    } catch (err) {
      say(err.message, "error");
    }
  }

  window.addEventListener("hashchange", () => {
    const link = linkIn(location.hash.slice(1));
    if (link) {
      const id = games.some((g) => g.id === link.id) ? link.id : gameId;
      (async () => {
        if (id && id !== gameId) await openGame(id, false);
        if (link.game) await openLink(link);
      })().catch((err) => say(err.message, "error"));
      return;
    }
    const id = decodeURIComponent(location.hash.slice(1));
    if (id && id !== gameId && games.some((g) => g.id === id)) {
      openGame(id, false).catch((err) => say(err.message, "error"));
    }
  });

  init();
})();
