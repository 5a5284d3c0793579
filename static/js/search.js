// Progressive enhancement of the search and formula pages: KaTeX rendering, live preview,
// palette, alignment highlighting on hover/focus/tap, feedback without a page reload, and which results were seen.
// Everything here is optional: the pages work as plain HTML forms and links without it.
(function () {
  "use strict";

  const PREVIEW_DELAY_MS = 150;
  const HL_CLASSES = ["hl", "hl-0", "hl-1", "hl-2", "hl-3", "hl-4", "hl-5"];

  function renderMath(root) {
    if (!window.katex) return;
    const source = window.texSource || String;  // render_math.js, loaded first
    const macros = window.texMacros || Object;
    root.querySelectorAll(".math[data-latex]").forEach(function (el) {
      nameFormulaLink(el);
      try {
        // to a string first: katex.render empties the element before it parses, and a formula it cannot read
        // would leave an empty box instead of its source
        el.innerHTML = window.katex.renderToString(source(el.dataset.latex), {
          throwOnError: true, trust: false, displayMode: el.classList.contains("display"), macros: macros(),
        });
        el.classList.add("rendered");
      } catch (err) {
        el.classList.add("unrendered");  // the LaTeX source stays visible
      }
    });
  }

  // A link that is only a formula is read through KaTeX's MathML; a word before it, for screen readers only, says
  // what the link is (and names it for tools that do not read MathML).
  function nameFormulaLink(el) {
    const link = el.closest("a");
    if (!link || link.querySelector(".link-kind") || link.textContent.trim() !== el.textContent.trim()) return;
    const kind = document.createElement("span");
    kind.className = "visually-hidden link-kind";
    kind.textContent = "Formula ";
    link.prepend(kind);
  }

  function csrfToken() {
    const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    return match ? decodeURIComponent(match[1]) : "";
  }

  // ---- live preview -------------------------------------------------------
  // A query may write a query variable `?x` as well as `\qvar{x}` (mathparse/latex_commands.py): drawn alike, boxed;
  // in text (`\text{?a}`) a `?` is a character, as the parser reads it. A query KaTeX cannot read is drawn again as
  // typed, so that the error it throws gives a position in what the user typed, not in the rewritten text.
  const TEXT_OR_VARIABLE = /\\(?:text[a-z]*|mbox|operatorname\*?)\s*\{[^{}]*\}|\?([A-Za-z][0-9]*)/g;
  function renderQuery(latex, element, options) {
    try {
      window.katex.render(latex.replace(TEXT_OR_VARIABLE, function (whole, name) {
        return name ? "{\\qvar{" + name + "}}" : whole;
      }), element, options);
    } catch (err) {
      window.katex.render(latex, element, options);
    }
  }

  function setupPreview() {
    const input = document.getElementById("q");
    const preview = document.getElementById("preview");
    const status = document.getElementById("preview-error");
    if (!input || !preview || !window.katex) return;
    const serverError = document.querySelector(".error[role=alert]");
    let timer = null;
    function update() {
      const latex = input.value;
      status.textContent = "";
      status.classList.remove("notice");
      input.removeAttribute("aria-invalid");
      if (!latex.trim()) { preview.hidden = true; preview.textContent = ""; return; }
      const other = otherNotation(latex);
      if (other) {  // KaTeX reads LaTeX only; the server reads these and shows what it read
        preview.hidden = true;
        preview.textContent = "";
        status.textContent = "Reads as " + other + "; search to see it rendered.";
        status.classList.add("notice");
        return;
      }
      preview.hidden = false;
      try {
        renderQuery(latex, preview, {
          throwOnError: true, trust: false, displayMode: true, macros: (window.texMacros || Object)(),
        });
      } catch (err) {
        preview.textContent = "";
        const pos = typeof err.position === "number" ? err.position : null;
        input.setAttribute("aria-invalid", "true");
        // the server's error for the query just searched says it already, in the parser's words: not twice
        if (!(serverError && latex === input.defaultValue)) {
          status.textContent = where(pos, latex) + String(err.message || err).replace(/^KaTeX parse error: /, "");
        }
        if (pos !== null) showErrorPosition(preview, latex, pos);
      }
    }
    input.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(update, PREVIEW_DELAY_MS);
    });
    input.addEventListener("preview", update);
    // Beside results the preview would repeat the query they answer: it shows once the query is edited.
    if (!document.getElementById("results-title")) update();
  }

  // KaTeX's error offset (from 0) as people count characters, from 1, like the server's errors.
  function where(pos, latex) {
    if (pos === null) return "";
    return pos >= latex.length ? "At the end: " : "At character " + (pos + 1) + ": ";
  }

  // The notation the search box detects besides LaTeX (searchapp.web.params.detect_notation), or "".
  function otherNotation(text) {
    const start = text.trimStart();
    if (start.startsWith("<math")) return "MathML";
    return /^\[[A-Z][A-Za-z]*!/.test(start) ? "a Tangent SLT string" : "";
  }
  window.otherNotation = otherNotation;  // formula_editor.js shows no such query in the editor

  function showErrorPosition(preview, latex, pos) {
    const code = document.createElement("code");
    code.className = "error-source";
    const bad = document.createElement("mark");
    bad.textContent = latex.slice(pos, pos + 1) || " ";
    code.append(latex.slice(0, pos), bad, latex.slice(pos + 1));
    preview.appendChild(code);
  }

  // ---- palette --------------------------------------------------------------
  function setupPalette() {
    const input = document.getElementById("q");
    if (!input) return;
    document.querySelectorAll(".palette-item").forEach(function (button) {
      button.addEventListener("click", function () {
        const text = button.dataset.insert;
        // formula_editor.js takes the construct when the visual editor is the field in use
        const insert = new CustomEvent("palette-insert", { bubbles: true, cancelable: true, detail: { latex: text } });
        if (!button.dispatchEvent(insert)) return;
        const start = input.selectionStart ?? input.value.length;
        const end = input.selectionEnd ?? start;
        input.setRangeText(text, start, end, "end");
        const hole = text.indexOf("{}");  // put the cursor in the first empty group
        if (hole >= 0) input.setSelectionRange(start + hole + 1, start + hole + 1);
        input.focus();
        input.dispatchEvent(new Event("preview"));
      });
    });
  }

  // ---- "why this matched" highlighting ----------------------------------------
  function clearHighlights() {
    document.querySelectorAll(".result.active").forEach(function (r) { r.classList.remove("active"); });
    document.querySelectorAll("#query-tree .node.hl").forEach(function (n) {
      n.classList.remove.apply(n.classList, HL_CLASSES);
    });
  }

  function activate(result) {
    if (result.classList.contains("active")) return;
    clearHighlights();
    result.classList.add("active");
    let highlight;
    try { highlight = JSON.parse(result.dataset.highlight || "{}"); } catch (err) { return; }
    Object.entries(highlight.query || {}).forEach(function ([node, colour]) {
      const el = document.querySelector('#query-tree .node[data-node="' + Number(node) + '"]');
      if (el) el.classList.add("hl", "hl-" + Number(colour));
    });
  }

  function setupHighlights() {
    document.querySelectorAll(".result").forEach(function (result) {
      result.addEventListener("mouseenter", function () { activate(result); });
      result.addEventListener("focusin", function () { activate(result); });
      result.addEventListener("touchstart", function () { activate(result); }, { passive: true });
    });
    const list = document.querySelector(".results");
    if (list) list.addEventListener("mouseleave", clearHighlights);
  }

  // ---- feedback and click logging ---------------------------------------------
  function sendFeedback(form, kind, keepalive) {
    const body = {
      query: form.elements.query.value, rank: Number(form.elements.rank.value), fusion: form.elements.fusion.value,
      kind: kind,
    };
    const target = form.elements.formula_id ? "formula_id" : "post_id";  // a formula, or an answer
    body[target] = Number(form.elements[target].value);
    // a click names the results page it was made on, so it can be read against what that page showed
    if (kind === "click" && form.elements.impression_id) body.impression_id = Number(form.elements.impression_id.value);
    return fetch("/api/feedback", {
      method: "POST", credentials: "same-origin", keepalive: keepalive,
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
      body: JSON.stringify(body),
    });
  }

  // The pressed button is the judgment held; pressing it again, or Undo, takes it back ("none"), as the no-JS form
  // does. A result judged not relevant stays where it is, greyed, with its Undo.
  function showJudgment(form, kind) {
    form.querySelectorAll("button.fb[data-kind]").forEach(function (b) {
      const pressed = b.dataset.kind === kind;
      b.setAttribute("aria-pressed", String(pressed));
      b.value = pressed ? "none" : b.dataset.kind;
    });
    const undo = form.querySelector("button.fb-undo");
    if (kind === "none" && document.activeElement === undo) form.querySelector("button.fb[data-kind]").focus();
    undo.hidden = kind === "none";
    form.closest(".result").classList.toggle("judged-not-relevant", kind === "not_relevant");
  }

  // What people now say of the result (the server's words after the judgment), in place of what the page said: the
  // order changes at the next search, so it no longer says how far the result moved.
  function showPeople(form, words) {
    const said = form.closest(".result").querySelector(".people-said");
    if (!said) return;
    said.hidden = !words;
    said.classList.remove("moved-up", "moved-down");
    said.querySelector(".why-title").textContent = "People said:";
    said.querySelector(".people-words").textContent = words;
  }

  const JUDGMENT_STATUS = { relevant: "Marked relevant", not_relevant: "Marked not relevant", none: "Judgment removed" };

  function setupFeedback() {
    document.querySelectorAll("form.feedback").forEach(function (form) {
      const status = form.querySelector(".feedback-status");
      form.addEventListener("submit", function (event) {
        event.preventDefault();
        const button = event.submitter;
        const kind = button ? button.value : "relevant";
        status.textContent = "Saving…";
        sendFeedback(form, kind, false).then(function (response) {
          return response.json().then(function (data) { return { ok: response.ok, data: data }; });
        }).then(function (answer) {
          if (!answer.ok) throw new Error(answer.data.message || "could not save");
          showJudgment(form, kind);
          showPeople(form, answer.data.explanation);
          status.textContent = JUDGMENT_STATUS[kind];
        }).catch(function (err) { status.textContent = "Not saved: " + err.message; });
      });
    });
    document.querySelectorAll(".result a").forEach(function (link) {
      link.addEventListener("click", function () {
        const form = link.closest(".result").querySelector("form.feedback");
        if (form) sendFeedback(form, "click", true).catch(function () { /* logging is best effort */ });
      });
    });
  }

  // ---- which results were seen ------------------------------------------------
  // A page served counts nothing by itself (searchapp.feedback.impressions): a result counts as seen once it has been
  // on screen for about a second, half of it or half the screen's height. The results seen go in one beacon a moment
  // later, and whatever is left when the page is hidden or left; each once.
  const SEEN_MS = 1000;
  const BATCH_MS = 500;

  function setupLooks() {
    const lists = document.querySelectorAll("ol.results[data-impression]");
    if (!lists.length || !("IntersectionObserver" in window) || !navigator.sendBeacon) return;
    const impression = lists[0].dataset.impression;
    const timers = new Map();
    const pending = new Set();
    let batch = null;
    function send() {
      clearTimeout(batch);
      batch = null;
      if (!pending.size) return;
      const body = new URLSearchParams({ csrfmiddlewaretoken: csrfToken(), impression_id: impression });
      pending.forEach(function (id) { body.append("formula_ids", id); });
      pending.clear();
      navigator.sendBeacon("/api/looks", body);
    }
    const observer = new IntersectionObserver(function (entries) {
      entries.forEach(function (entry) {
        const result = entry.target;
        const inView = entry.isIntersecting && (entry.intersectionRatio >= 0.5 ||
          entry.intersectionRect.height >= window.innerHeight / 2);
        if (!inView) {
          clearTimeout(timers.get(result));
          timers.delete(result);
        } else if (!timers.has(result)) {
          timers.set(result, setTimeout(function () {
            observer.unobserve(result);
            pending.add(result.dataset.formula);
            if (!batch) batch = setTimeout(send, BATCH_MS);
          }, SEEN_MS));
        }
      });
    }, { threshold: [0, 0.25, 0.5, 0.75, 1] });
    lists.forEach(function (list) {
      list.querySelectorAll(".result[data-formula]").forEach(function (result) { observer.observe(result); });
    });
    document.addEventListener("visibilitychange", function () { if (document.visibilityState === "hidden") send(); });
    window.addEventListener("pagehide", send);
  }

  // ---- copy a formula's LaTeX -------------------------------------------------
  // Shown only where it works: the Clipboard API needs a secure context (HTTPS, or this machine's own address).
  const COPIED_MS = 1500;

  function setupCopy() {
    if (!navigator.clipboard || !window.isSecureContext) return;
    document.querySelectorAll("button.copy-latex").forEach(function (button) {
      const label = button.textContent;
      button.hidden = false;
      button.addEventListener("click", function () {
        navigator.clipboard.writeText(button.dataset.copy).then(function () {
          button.textContent = "Copied";
        }, function () {
          button.textContent = "Could not copy";
        }).then(function () {
          setTimeout(function () { button.textContent = label; }, COPIED_MS);
        });
      });
    });
  }

  // "/" puts the cursor in the query box from anywhere on the page, as on most search sites; typed in a field,
  // it is a slash.
  function setupSlashFocus() {
    const box = document.getElementById("q") || document.getElementById("question");
    if (!box) return;
    document.addEventListener("keydown", function (event) {
      if (event.key !== "/" || event.ctrlKey || event.metaKey || event.altKey) return;
      // a math-field (formula_editor.js) types its fraction with "/"
      if (event.target.closest && event.target.closest("input, textarea, select, [contenteditable], math-field")) return;
      event.preventDefault();
      box.focus();
      box.setSelectionRange(box.value.length, box.value.length);
    });
  }

  // After a search, keyboard and screen-reader users start at the results, not at the top of the page: the
  // results' heading takes the focus (without scrolling the query box away) when the page is a search's answer.
  function focusResults() {
    const heading = document.getElementById("results-title");
    if (heading && !location.hash) heading.focus({ preventScroll: true });
  }

  function start() {
    renderMath(document);
    focusResults();
    setupSlashFocus();
    setupPreview();
    setupPalette();
    setupHighlights();
    setupFeedback();
    setupLooks();
    setupCopy();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
