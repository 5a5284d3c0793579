// The search page's visual formula editor: a MathLive math-field kept in step with the LaTeX field #q both ways.
// #q stays the form's field, so without JavaScript (or without MathLive) the page is the plain form. The editor
// writes its empty boxes into #q as empty groups, `\frac{}{}` as the palette does, and a search made with the editor
// on names each box a query variable of its own (`\frac{\qvar{a}}{\qvar{b}}`): an empty box would match nothing.
(function () {
  "use strict";

  const QUIET = { silenceNotifications: true };  // setValue without an input event back to #q
  // A query variable is drawn in the editor as the preview draws it (render_math.js texMacros) and written back as
  // \qvar{x}, not expanded.
  const QVAR_MACRO = { args: 1, def: "\\boxed{\\mathsf{#1}}", captureSelection: true, expand: false };
  const NAMES = "abcdefghijklmnopqrstuvwxyz";
  const UNICODE = /[^\x00-\x7f]/;  // what only the server reads as LaTeX (mathparse/unicode_math.py)
  const READ_DELAY_MS = 150;  // one request once typing pauses, not one a key

  // MathLive writes a box it made empty as \placeholder{} (typing "/" or "^"), an empty branch it read as {}.
  // #q shows both as {}: KaTeX draws it, and the server's empty-box hint reads it (searchapp/web/search_page.py).
  function queryLatex(latex) {
    return latex.replace(/\\placeholder\s*(?:\[[^\]]*\])?\s*\{[^{}]*\}/g, "{}").replace(/\{\s*\{\}\s*\}/g, "{}");
  }

  // An empty group is a box where what precedes it wants an argument (\frac, \sqrt, an accent, ^, _, a closed
  // group): `{}^{14}C` attaches to nothing, and `\text{}` is words, so neither is a box.
  const EMPTY_GROUP = /\{\s*\}/g;
  const BOX_BEFORE = /(?:\\[A-Za-z]+|[\^_}\]])\s*$/;
  const WORDS_BEFORE = /\\(?:text[a-z]*|mbox|operatorname\*?|begin|end|[a-z]*color)\s*$/;
  const VARIABLE = /\\qvar\s*\{\s*([^{}]*?)\s*\}/g;

  // `latex` with each empty box a query variable named apart from the others and from the query's own variables
  // (one name twice must match one thing).
  function boxesAsVariables(latex) {
    const used = new Set(Array.from(latex.matchAll(VARIABLE), function (match) { return match[1]; }));
    const names = Array.from(NAMES).filter(function (name) { return !used.has(name); });
    let count = 0;
    return latex.replace(EMPTY_GROUP, function (group, offset) {
      const before = latex.slice(Math.max(0, offset - 24), offset);
      if (!BOX_BEFORE.test(before) || WORDS_BEFORE.test(before)) return group;
      count += 1;
      return "{\\qvar{" + (names[count - 1] || "x" + count) + "}}";
    });
  }

  // A click on the field gives it the keyboard only 60 ms later (MathLive's onFocus waits a turn, so that a focus that
  // moves on at once is not taken): keys typed meanwhile would go to the page and be lost. From the press on the field
  // until it has the keyboard, printable keys are held, then typed into it as keystrokes (so "/" still makes a
  // fraction); a focus or a press elsewhere first ends the wait.
  function holdKeysUntilFocused(field, typed) {
    let held = null;  // the keys held since the press, or null when not waiting
    field.addEventListener("pointerdown", function () {
      if (!field.readOnly && document.activeElement !== field) held = [];
    }, true);
    document.addEventListener("keydown", function (event) {
      if (held === null || document.activeElement === field) return;
      if (event.key.length !== 1 || event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return;
      event.preventDefault();
      event.stopPropagation();  // the field's key, not the page's ("/" would otherwise jump to the LaTeX field)
      held.push(event.key);
    }, true);
    document.addEventListener("pointerdown", function (event) {
      if (event.target !== field) held = null;
    }, true);
    document.addEventListener("focusin", function (event) {
      const keys = held;
      held = null;
      if (event.target !== field || !keys || !keys.length) return;
      keys.forEach(function (key) { field.executeCommand(["typedText", key, { simulateKeystroke: true }]); });
      typed();
    });
  }

  // The palette's constructs as MathLive templates: each empty group a placeholder to type into.
  function template(latex) {
    const filled = latex.replace(/\{\}/g, "{#?}");
    return filled.replace(/\\left(\S+)\s*\\right/, "\\left$1 #? \\right");
  }

  function setUp(mount) {
    const input = document.getElementById("q");
    const form = document.getElementById("search-form");
    const MathfieldElement = window.MathLive && window.MathLive.MathfieldElement;
    if (!input || !form || !MathfieldElement) return;
    // the site's CSP lets MathLive fetch only from this origin: fonts and sounds from the vendored copies
    // (as absolute URLs: MathLive would resolve a relative one against its script's, asking the server first)
    MathfieldElement.fontsDirectory = new URL(mount.dataset.fonts, document.baseURI).href;
    MathfieldElement.soundsDirectory = new URL(mount.dataset.sounds, document.baseURI).href;

    const field = new MathfieldElement();
    field.id = "formula-field";
    field.setAttribute("aria-labelledby", "formula-editor-label");
    field.setAttribute("aria-describedby", "formula-editor-hint formula-editor-notice");
    mount.querySelector("#formula-editor-label").after(field);
    mount.hidden = false;
    field.macros = Object.assign({}, field.macros, { qvar: QVAR_MACRO });
    const example = input.placeholder;  // the same example, drawn greyed while the editor is empty

    const notice = document.getElementById("formula-editor-notice");
    const hint = document.getElementById("formula-editor-hint");
    let shown = null;  // the field's value as #q last set it: the field has no edit of its own while it is this
    let inUse = field;  // where the palette inserts: the field, unless #q was focused last
    let following = false;  // fromInput is setting the field: an input event MathLive sends meanwhile (a key typed
    // a moment before, sent late) is not an edit, and must not write over what was just put in #q

    function fromInput() {
      following = true;
      try {
        follow();
      } finally {
        following = false;
      }
    }

    function follow() {
      const other = window.otherNotation ? window.otherNotation(input.value) : "";
      // a question in the one box (words with $…$ formulas) is no formula to edit: the editor steps aside
      const question = !other && input.value.indexOf("$") >= 0;
      mount.classList.toggle("stepped-aside", question);
      field.readOnly = Boolean(other) || question;
      field.classList.toggle("other-notation", Boolean(other));
      notice.textContent = other ? "The editor cannot show " + other + "; it stays as written in the field below." : "";
      hint.hidden = Boolean(other);  // no boxes to go through meanwhile
      field.placeholder = other ? "" : example;
      if (other || question) {
        field.setValue("", QUIET);
      } else if (UNICODE.test(input.value)) {
        readAsLatex(input.value);
      } else if (queryLatex(field.value) !== input.value) {
        field.setValue(input.value, QUIET);
      }
      shown = field.value;
    }

    // Unicode math (x², √2, ℝ) is shown as the LaTeX the search reads it as, which the server says (/api/latex):
    // MathLive would draw `x²` as x, a caret and a 2. The answer is dropped if #q has changed meanwhile.
    let reading = null;
    function readAsLatex(text) {
      clearTimeout(reading);
      reading = setTimeout(function () {
        fetch("/api/latex?" + new URLSearchParams({ q: text }), { headers: { Accept: "application/json" } })
          .then(function (response) { return response.ok ? response.json() : { latex: text }; })
          .catch(function () { return { latex: text }; })
          .then(function (read) {
            if (input.value !== text || field.readOnly) return;
            following = true;
            try {
              field.setValue(read.latex, QUIET);
            } finally {
              following = false;
            }
            shown = field.value;
          });
      }, READ_DELAY_MS);
    }

    function fromField() {
      if (following || field.readOnly || field.value === shown) return;  // #q holds MathML or the field only echoes it
      input.value = queryLatex(field.value);
      shown = null;
      input.dispatchEvent(new Event("preview"));  // search.js redraws the KaTeX preview and its error
    }

    field.addEventListener("input", fromField);
    holdKeysUntilFocused(field, fromField);
    input.addEventListener("input", fromInput);
    input.addEventListener("preview", fromInput);  // search.js's palette wrote into #q
    field.addEventListener("focus", function () { inUse = field; });
    input.addEventListener("focus", function () { inUse = input; });

    // Enter searches, as in #q; but an Enter that ends a command typed after "\" (MathLive's LaTeX mode) only ends
    // it. Seen while capturing, before MathLive has handled the key and left that mode.
    field.addEventListener("keydown", function (event) {
      if (event.key !== "Enter" || event.shiftKey || event.ctrlKey || event.altKey || event.metaKey) return;
      if (event.isComposing || field.mode === "latex") return;
      event.preventDefault();
      form.requestSubmit();
    }, true);

    // A click on the palette leaves the cursor where it was in the field (the button takes no focus from it);
    // the keyboard's Enter on a button sends it back there.
    form.addEventListener("mousedown", function (event) {
      if (inUse === field && !field.readOnly && event.target.closest(".palette-item")) event.preventDefault();
    });
    form.addEventListener("palette-insert", function (event) {
      if (inUse !== field || field.readOnly) return;
      event.preventDefault();
      field.focus();
      field.executeCommand(["insert", template(event.detail.latex), { selectionMode: "placeholder" }]);
      field.focus();  // inserting a macro (\qvar) gives the focus back to the button otherwise
      fromField();
    });

    form.addEventListener("submit", function () {
      fromField();  // MathLive sends its input events a moment late: an Enter right after a key is not lost
      const notation = form.elements.notation ? form.elements.notation.value : "auto";
      if (field.readOnly || !(notation === "auto" || notation === "latex")) return;
      input.value = boxesAsVariables(input.value);
    });

    fromInput();
  }

  function start() {
    const mount = document.getElementById("formula-editor");
    if (mount) setUp(mount);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
