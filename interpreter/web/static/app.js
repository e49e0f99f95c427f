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

  // The server ----------------------------------------------------------------------------
  async function api(path, body) {
    const init = { method: body === undefined ? "GET" : "POST", headers: {} };
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
  async function openGame(id) {
    const data = await api("/api/open", { id });
    gameId = id;
    fileText = data.rules.text;
    $("game-select").value = id;
    if (location.hash.slice(1) !== id) history.replaceState(null, "", "#" + id);
    setRules(data.rules);
    show(data.view);
    say("");
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
    if (svg) {  // small boards drawn larger, large ones fit the pane
      const natural = parseFloat(svg.getAttribute("width")) || 400;
      svg.style.maxWidth = `${Math.round(Math.min(640, Math.max(380, 1.6 * natural)))}px`;
    }
    addHitAreas(svg);
    $("game-title").textContent = `${v.name}: ${v.players.join(" vs ")}`;
    const status = $("status");
    status.textContent = v.status + (v.stuck ? ` ${v.mover} has no legal move.` : "");
    status.className = v.over ? "over" : "";
    const list = $("moves");
    list.textContent = "";
    for (const m of v.moves) {
      const li = document.createElement("li");
      li.textContent = `${m.role} ${m.move}`;
      list.appendChild(li);
    }
    list.scrollTop = list.scrollHeight;
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
    if (busy || !view || view.over) return;
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
        fileText = data.rules.text;
        $("game-select").value = file;
        history.replaceState(null, "", "#" + file);
      }
      setRules(data.rules);
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
  }

  function scheduleCheck() {
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
        (d.severity === "error" ? "" : `${d.severity}: `) + d.message));
      if (d.note) {
        const note = document.createElement("span");
        note.className = "diag-note";
        note.textContent = `note: ${d.note}`;
        li.appendChild(note);
      }
      li.addEventListener("click", () => goTo(d.line, d.column, d.end_line, d.end_column));
      list.appendChild(li);
      const mark = $("gutter").querySelector(`span[data-line="${d.line}"]`);
      if (d.here && mark) {
        mark.classList.add(li.className);
        mark.title = (mark.title ? mark.title + "\n" : "") + `${d.column}: ${d.message}`;
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
    try {
      const data = await api("/api/restart", { text: $("source").value, options: optionValues });
      aiPaused = false;
      show(data.view);
      if (data.rules.options) buildOptions(data.rules.options);
      showDiagnostics(data.rules.diagnostics, true);
      say(`playing the rules in the editor (${Object.entries(data.view.options)
        .map(([k, v]) => `${k}=${v}`).join(", ") || "no options"})`, "info");
    } catch (err) {
      if (err.data && err.data.diagnostics) showDiagnostics(err.data.diagnostics, false);
      say(err.message, "error");
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

  // Game lengths as bars: one per bin, its height the number of games.
  function histogram(bins) {
    const width = 360, height = 110, base = 90;
    const svg = document.createElementNS(SVG_NS, "svg");
    svg.setAttribute("class", "histogram");
    svg.setAttribute("width", String(width));
    svg.setAttribute("height", String(height));
    svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
    const most = Math.max(...bins.map((b) => b.count), 1);
    const w = width / bins.length;
    bins.forEach((b, i) => {
      const h = Math.round((base - 10) * b.count / most);
      const bar = document.createElementNS(SVG_NS, "rect");
      bar.setAttribute("class", "bar");
      bar.setAttribute("x", String(i * w + 1));
      bar.setAttribute("y", String(base - h));
      bar.setAttribute("width", String(Math.max(1, w - 2)));
      bar.setAttribute("height", String(h));
      const title = document.createElementNS(SVG_NS, "title");
      title.textContent = `${b.low === b.high ? b.low : `${b.low}–${b.high}`} turns: ` +
        `${b.count} games`;
      bar.appendChild(title);
      svg.appendChild(bar);
      const label = document.createElementNS(SVG_NS, "text");
      label.setAttribute("class", "axis");
      label.setAttribute("x", String(i * w + w / 2));
      label.setAttribute("y", String(base + 12));
      label.setAttribute("text-anchor", "middle");
      label.textContent = String(b.low);
      svg.appendChild(label);
    });
    return svg;
  }

  // Wiring --------------------------------------------------------------------------------
  function bind() {
    $("board").addEventListener("click", (event) => {
      const target = event.target.closest("[data-site]");
      if (target) clickSite(target.getAttribute("data-site"));
    });
    $("undo").addEventListener("click", () => action("/api/undo"));
    $("pass").addEventListener("click", () => submit("pass"));
    $("swap").addEventListener("click", () => submit("swap"));
    $("move-form").addEventListener("submit", (event) => {
      event.preventDefault();
      const text = $("move-input").value.trim();
      if (text) submit(text).then(() => { $("move-input").value = ""; });
    });
    $("game-select").addEventListener("change", () => {
      openGame($("game-select").value).catch((err) => say(err.message, "error"));
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
        source.setRangeText("  ", source.selectionStart, source.selectionEnd, "end");
        renderGutter();
        scheduleCheck();
      }
    });
    $("play-this").addEventListener("click", playThis);
    $("revert").addEventListener("click", () => {
      source.value = fileText;
      renderGutter();
      scheduleCheck();
    });
    $("validate-form").addEventListener("submit", validate);
  }

  async function init() {
    bind();
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
      const wanted = decodeURIComponent(location.hash.slice(1));
      const first = games.find((g) => g.id === wanted) || games[0];
      if (first) {
        try {
          await openGame(first.id);
        } catch (err) {  // an old token the server no longer knows: api() made a new one
          if (!gameId) await openGame(first.id);
        }
      }
      document.body.dataset.ready = "yes";
    } catch (err) {
      say(err.message, "error");
    }
  }

  window.addEventListener("hashchange", () => {
    const id = decodeURIComponent(location.hash.slice(1));
    if (id && id !== gameId && games.some((g) => g.id === id)) {
      openGame(id).catch((err) => say(err.message, "error"));
    }
  });

  init();
})();
