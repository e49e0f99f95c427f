// The playground's editor: the game text's textarea, transparent, over a highlighted copy of
// its text (a <pre> kept in step on every input and scroll); a list of ludeme names and
// keywords to complete under the caret; a ludeme's reference on hover (or Ctrl+I on the
// caret's word). Plain JavaScript, no libraries: the language comes from GET /api/grammar,
// made from the registry. The textarea stays the only thing typed into, so that input
// methods, undo and the browser's own editing keep working; text is inserted with the
// browser's insertText command, which undo knows.
"use strict";

window.ludemeEditor = (() => {
  const source = document.getElementById("source");
  const layer = document.getElementById("highlight");
  // One token at a time, in the grammar's order of preference (dsl/grammar.lark); an
  // unfinished string runs to the end of its line.
  const TOKEN = new RegExp([
    "(\\/\\/[^\\n]*)",                         // 1 comment
    "(\"(?:[^\"\\\\\\n]|\\\\.)*\"?)",          // 2 string
    "([a-z][a-z0-9_-]*:)",                     // 3 keyword
    "(#[A-Za-z0-9_]+)",                        // 4 option or define parameter
    "(-?[0-9]+(?:\\.[0-9]+)?(?![A-Za-z_]))",   // 5 number
    "((?:true|false)(?![A-Za-z0-9_:-]))",      // 6 true, false
    "([a-z][a-z0-9_-]*|<=|>=|!=|[<>=+*\\/-])", // 7 name or operator
    "([A-Z][A-Za-z0-9_]*)",                    // 8 constant
    "([(){}])",                                // 9 bracket
    "(\\s+)",                                  // 10 space
    "([^\\s(){}]+?)",                          // 11 anything else
  ].join("|"), "gy");
  const KINDS = [null, "comment", "string", "keyword", "param", "number", "bool", "name",
    "const", "bracket", "space", "other"];
  const MAX_ITEMS = 12;

  let grammar = null;   // GET /api/grammar: {ludemes, families, forms, constants}
  let heads = [];       // the names that may open a form, sorted
  let tokens = [];      // the text's tokens as last drawn: {kind, text, start, ludeme}
  let drawn = null;     // the text they are of
  let list = null;      // the completion list: {items, active, from, to} while it is shown
  let inserting = false;  // text is being inserted by this script (not typed)
  let hoverTimer = null;
  let tipFor = null;    // the ludeme whose reference is shown

  const menu = document.createElement("ul");
  menu.id = "completions";
  menu.setAttribute("role", "listbox");
  menu.hidden = true;
  const tip = document.createElement("div");
  tip.id = "ludeme-tip";
  tip.setAttribute("role", "tooltip");
  tip.hidden = true;
  document.body.append(menu, tip);

  // Tokens and highlighting ---------------------------------------------------------------
  // The text's tokens; a form's head (the name, operator or string after "(") is kind
  // "head"; `ludeme` names the registry's ludeme a head (or a family's constant after it,
  // as Empty in (sites Empty)) stands for.
  function tokenize(text) {
    const out = [];
    TOKEN.lastIndex = 0;
    let afterOpen = false;
    let head = null;
    while (TOKEN.lastIndex < text.length) {
      const start = TOKEN.lastIndex;
      const m = TOKEN.exec(text);
      if (!m) break;
      let kind = "other";
      for (let i = 1; i < KINDS.length; i++) {
        if (m[i] !== undefined) { kind = KINDS[i]; break; }
      }
      const token = { kind, text: m[0], start, ludeme: null };
      if (kind === "space" || kind === "comment") {
        out.push(token);
        continue;
      }
      if (afterOpen && (kind === "name" || kind === "string" || kind === "other")) {
        token.kind = "head";
        if (grammar && kind !== "string") {
          if (grammar.ludemes[m[0]]) token.ludeme = m[0];
          else if (!grammar.families[m[0]]) token.unknown = true;
        }
        head = token;
      } else if (head && kind === "const" && grammar
                 && grammar.ludemes[`${head.text} ${m[0]}`]) {
        token.ludeme = head.ludeme = `${head.text} ${m[0]}`;
        head = null;
      } else {
        head = null;
      }
      afterOpen = kind === "bracket" && m[0] === "(";
      out.push(token);
    }
    return out;
  }

  function escapeHtml(text) {
    return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  }

  // Draw the text's copy, unless it is drawn already: one span a token (space and brackets
  // bare).
  function refresh(force) {
    const text = source.value;
    if (text === drawn && !force) {
      syncScroll();
      return;
    }
    drawn = text;
    tokens = tokenize(text);
    const parts = [];
    for (const t of tokens) {
      if (t.kind === "space" || t.kind === "bracket") {
        parts.push(escapeHtml(t.text));
        continue;
      }
      const cls = `tok-${t.kind}${t.unknown ? " tok-unknown" : ""}`;
      const data = t.ludeme ? ` data-ludeme="${escapeHtml(t.ludeme).replace(/"/g, "&quot;")}"`
        : "";
      parts.push(`<span class="${cls}"${data}>${escapeHtml(t.text)}</span>`);
    }
    // A last empty line is a line too; the tail leaves room for the textarea's scrollbars.
    layer.innerHTML = `<code>${parts.join("")}\n</code>`;
    syncScroll();
  }

  function syncScroll() {
    layer.scrollTop = source.scrollTop;
    layer.scrollLeft = source.scrollLeft;
  }

  // Inserting text as typing would (undo knows it) --------------------------------------------
  function insert(text, from, to) {
    source.focus();
    if (from !== undefined) source.setSelectionRange(from, to);
    inserting = true;
    try {
      if (!document.execCommand("insertText", false, text)) {
        source.setRangeText(text, source.selectionStart, source.selectionEnd, "end");
        source.dispatchEvent(new Event("input"));
      }
    } finally {
      inserting = false;
    }
  }

  // Completion -------------------------------------------------------------------------------
  // The forms open at `offset`, innermost last: {head, ludeme, args, used} ({brace} for a list).
  function openForms(offset) {
    const stack = [];
    for (const t of tokens) {
      if (t.start >= offset) break;
      if (t.kind === "space" || t.kind === "comment") continue;
      const top = stack[stack.length - 1];
      if (t.kind === "bracket") {
        if (t.text === "(") stack.push({ head: null, ludeme: null, args: 0, used: new Set() });
        else if (t.text === "{") stack.push({ brace: true });
        else stack.pop();
        continue;
      }
      if (!top || top.brace) continue;
      if (top.head === null) {
        top.head = t.text;
        top.ludeme = t.ludeme;
      } else {
        if (t.ludeme) top.ludeme = t.ludeme;
        if (t.kind === "keyword") top.used.add(t.text.slice(0, -1));
        top.args++;
      }
    }
    return stack;
  }

  // What may be written at the caret: {items: [{value, hint}], from, to}, or null.
  function candidates(explicit) {
    if (!grammar || source.selectionStart !== source.selectionEnd) return null;
    const caret = source.selectionStart;
    const before = source.value.slice(Math.max(0, caret - 200), caret);
    const prefix = /[A-Za-z0-9_-]*$/.exec(before)[0];
    const from = caret - prefix.length;
    const previous = source.value.charAt(from - 1);
    const inside = tokens.find((t) => t.start < from && from < t.start + t.text.length);
    if (inside && (inside.kind === "comment" || inside.kind === "string")) return null;
    const items = [];
    if (previous === "(") {
      if (!prefix && !explicit) return null;
      for (const name of heads) {
        if (name.startsWith(prefix)) items.push({ value: name, hint: headHint(name) });
      }
    } else if (from === 0 || /\s/.test(previous)) {
      const top = openForms(from).pop();
      if (!top || top.brace || !top.head) return null;
      const family = grammar.families[top.head];
      if (family && top.args === 0 && !/^[a-z]/.test(prefix)) {
        for (const member of family) {
          if (member.startsWith(prefix)) {
            items.push({ value: member, hint: grammar.ludemes[`${top.head} ${member}`].usage });
          }
        }
      }
      const entry = top.ludeme && grammar.ludemes[top.ludeme];
      if (entry && !/^[A-Z]/.test(prefix)) {
        for (const k of entry.keywords) {
          if (k.startsWith(prefix) && !top.used.has(k)) {
            items.push({ value: `${k}:`, hint: keywordType(entry.usage, k) });
          }
        }
      }
    }
    if (!items.length || (items.length === 1 && items[0].value === prefix)) return null;
    return { items, from, to: caret, prefix };
  }

  function headHint(name) {
    const entry = grammar.ludemes[name];
    if (grammar.families[name]) return `${name} ${grammar.families[name].join(" | ")}`;
    return entry ? (entry.returns ? `→ ${entry.returns}` : "form") : "";
  }

  function keywordType(usage, keyword) {
    const m = new RegExp(`(?:^|[\\s\\[])${keyword}:([^\\]\\s]+)`).exec(usage);
    return m ? m[1] : "";
  }

  function complete(explicit) {
    const found = candidates(explicit);
    if (!found) {
      closeList();
      return;
    }
    list = { ...found, active: found.prefix || explicit ? 0 : -1 };
    drawList();
  }

  function drawList() {
    menu.textContent = "";
    list.items.slice(0, 200).forEach((item, i) => {
      const li = document.createElement("li");
      li.setAttribute("role", "option");
      li.dataset.value = item.value;
      if (i === list.active) {
        li.className = "active";
        li.setAttribute("aria-selected", "true");
      }
      const name = document.createElement("span");
      name.className = "name";
      name.textContent = item.value;
      const hint = document.createElement("span");
      hint.className = "hint";
      hint.textContent = item.hint;
      li.append(name, hint);
      // mousedown, not click: the textarea keeps the focus
      li.addEventListener("mousedown", (event) => {
        event.preventDefault();
        accept(i);
      });
      menu.appendChild(li);
    });
    const at = caretPoint(list.from);
    menu.style.left = `${at.left}px`;
    menu.style.top = `${at.bottom}px`;
    menu.style.maxHeight = `${MAX_ITEMS * 1.5}em`;
    menu.hidden = false;
    const active = menu.children[list.active];
    if (active) active.scrollIntoView({ block: "nearest" });
  }

  function closeList() {
    list = null;
    menu.hidden = true;
  }

  function accept(index) {
    const item = list.items[index];
    const { from, to } = list;
    closeList();
    insert(item.value, from, to);
  }

  // Where the character at `offset` is drawn, in the window's coordinates (the font is
  // monospaced and lines do not wrap).
  function caretPoint(offset) {
    const text = source.value;
    const lineStart = text.lastIndexOf("\n", offset - 1) + 1;
    const line = (text.slice(0, lineStart).match(/\n/g) || []).length;
    let column = 0;
    for (let i = lineStart; i < offset; i++) column = text[i] === "\t" ? column + 2 - column % 2 : column + 1;
    const style = getComputedStyle(source);
    const lineHeight = parseFloat(style.lineHeight) || 18;
    const box = source.getBoundingClientRect();
    const left = box.left + parseFloat(style.paddingLeft) + column * charWidth(style)
      - source.scrollLeft;
    const top = box.top + parseFloat(style.paddingTop) + line * lineHeight - source.scrollTop;
    return { left: Math.round(left), top: Math.round(top), bottom: Math.round(top + lineHeight) };
  }

  let measure = null;
  function charWidth(style) {
    measure = measure || document.createElement("canvas").getContext("2d");
    measure.font = `${style.fontSize} ${style.fontFamily}`;
    return measure.measureText("0000000000").width / 10;
  }

  // The reference on hover ---------------------------------------------------------------------
  function showTip(name, left, top) {
    const entry = grammar && grammar.ludemes[name];
    if (!entry) return;
    tipFor = name;
    tip.textContent = "";
    const usage = document.createElement("code");
    usage.className = "usage";
    usage.textContent = entry.usage + (entry.returns ? ` → ${entry.returns}` : "");
    tip.appendChild(usage);
    if (entry.summary) {
      const p = document.createElement("p");
      p.textContent = entry.summary;
      tip.appendChild(p);
    }
    if (entry.example) {
      const pre = document.createElement("pre");
      pre.textContent = entry.example;
      tip.appendChild(pre);
    }
    tip.style.left = `${Math.max(0, Math.round(left))}px`;
    tip.style.top = `${Math.round(top)}px`;
    tip.hidden = false;
  }

  function hideTip() {
    clearTimeout(hoverTimer);
    tipFor = null;
    tip.hidden = true;
  }

  // The drawn token under the pointer: the highlighted copy lies under the textarea.
  function hovered(x, y) {
    for (const el of document.elementsFromPoint(x, y)) {
      if (el.dataset && el.dataset.ludeme && layer.contains(el)) return el;
    }
    return null;
  }

  function onHover(event) {
    clearTimeout(hoverTimer);
    const x = event.clientX;
    const y = event.clientY;
    hoverTimer = setTimeout(() => {
      const el = hovered(x, y);
      if (!el) {
        hideTip();
      } else if (el.dataset.ludeme !== tipFor) {
        const box = el.getBoundingClientRect();
        showTip(el.dataset.ludeme, box.left, box.bottom + 2);
      }
    }, 150);
  }

  // Ctrl+I: the reference of the ludeme at the caret.
  function tipAtCaret() {
    const caret = source.selectionStart;
    const t = tokens.find((k) => k.start <= caret && caret <= k.start + k.text.length
                          && k.ludeme);
    if (!t) return;
    const at = caretPoint(t.start);
    showTip(t.ludeme, at.left, at.bottom + 2);
  }

  // Wiring -----------------------------------------------------------------------------------
  source.addEventListener("input", (event) => {
    refresh();
    if (inserting || event.isComposing) return;
    if (event.inputType === "insertText" || (list && event.inputType
                                              && event.inputType.startsWith("delete"))) {
      complete(false);
    } else {
      closeList();
    }
  });
  source.addEventListener("scroll", () => {
    syncScroll();
    closeList();
    hideTip();
  });
  source.addEventListener("keydown", (event) => {
    if (event.isComposing || event.keyCode === 229) return;  // an input method's keys
    hideTip();
    if ((event.ctrlKey || event.metaKey) && event.key === " ") {
      event.preventDefault();
      complete(true);
      return;
    }
    if ((event.ctrlKey || event.metaKey) && !event.shiftKey && event.key === "i") {
      event.preventDefault();
      tipAtCaret();
      return;
    }
    if (!list) return;
    const n = list.items.length;
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      const step = event.key === "ArrowDown" ? 1 : -1;
      list.active = list.active < 0 ? (step > 0 ? 0 : n - 1) : (list.active + step + n) % n;
      drawList();
    } else if (event.key === "Tab" || (event.key === "Enter" && list.active >= 0)) {
      if (event.shiftKey || event.altKey || event.ctrlKey || event.metaKey) return;
      event.preventDefault();
      event.stopImmediatePropagation();  // not the page's Tab (indent)
      accept(Math.max(0, list.active));
    } else if (event.key === "Escape") {
      event.preventDefault();
      closeList();
    } else if (["ArrowLeft", "ArrowRight", "Home", "End", "PageUp", "PageDown", "Enter"]
               .includes(event.key)) {
      closeList();
    }
  });
  source.addEventListener("blur", () => {
    closeList();
    hideTip();
  });
  source.addEventListener("mousedown", () => closeList());
  window.addEventListener("scroll", () => {  // the list and the note stay where the text is
    closeList();
    hideTip();
  });
  window.addEventListener("resize", closeList);
  source.addEventListener("mousemove", onHover);
  source.addEventListener("mouseleave", hideTip);

  fetch("/api/grammar").then((res) => res.json()).then((data) => {
    grammar = data;
    const names = new Set([...data.forms]);
    for (const name of Object.keys(data.ludemes)) names.add(name.split(" ")[0]);
    heads = [...names].filter((n) => /^[a-z]/.test(n)).sort();
    refresh(true);
    document.body.dataset.grammar = "yes";
  }).catch(() => { /* no completion nor notes: the editor still works */ });

  refresh();
  return { refresh: () => refresh(false), insert };
})();
