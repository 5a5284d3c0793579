// Renders the math written into post text (elements marked .tex-text) with KaTeX. Formulas are found as KaTeX's
// auto-render finds them (the first opening delimiter, then its closing one outside braces), with what auto-render
// lacks: an escaped dollar \$ outside a formula is a dollar sign, not an opening, and environments standing in the
// text (\begin{align}…\end{align}) are display math, as MathJax on Math StackExchange draws them.
// searchapp/web/snippets.py (tex_spans) finds them the same way, so snippets are never cut inside one; the delimiters
// are the ones mathparse.extraction reads formulas by. Post text is untrusted: trust: false refuses
// \href, \url, \includegraphics and friends, and maxSize caps \rule and spaces that could cover the page.
// throwOnError: false shows a formula KaTeX cannot read as its source and goes on with the next one; strict: "ignore"
// because people write Unicode primes and the like into posts, and a console warning per formula helps no one.
(function () {
  "use strict";

  // Spellings of LaTeXML and of MathJax that KaTeX does not read, as ones it does: 1.9 % of the thread pages'
  // formulas could not be drawn, 0.8 % with these (the rest are authors' own macros such as \lam).
  const REWRITES = [
    // a delimiter in braces, \bigr{)}, \left{[} or \Big{\{}
    [/(\\(?:[bB]igg?[lrm]?|left|right|middle))\s*\{(\\[a-zA-Z]+|\\[{}|]|[^{}\\\s])\}/g, "$1$2 "],
    // an array's vertical position, \begin{array}[]{cc} or [t]
    [/\\begin\{array\}\s*\[[a-z]*\]/g, "\\begin{array}"],
    // a repeated column, *{3}{c}
    [/\*\{(\d{1,2})\}\{([^{}]*)\}/g, function (_, times, columns) { return columns.repeat(Number(times)); }],
    // a colour by its RGB fractions, \color[rgb]{1,0,0}
    [/\\color\s*\[rgb\]\s*\{\s*([\d.]+)\s*,\s*([\d.]+)\s*,\s*([\d.]+)\s*\}/g, function (_, r, g, b) {
      return "\\color{#" + [r, g, b].map(function (v) {
        return ("0" + Math.round(Math.min(1, Number(v)) * 255).toString(16)).slice(-2);
      }).join("") + "}";
    }],
    // a colour name with spaces around it, \color{ red} (LaTeXML broke the line inside the braces)
    [/\\(color|textcolor|colorbox)\s*\{\s*(#?\w+)\s*\}/g, "\\$1{$2}"],
    // LaTeXML's marks of stray characters, as the parser reads them (mathparse/normalise.py): a query variable is a
    // letter and digits (boxed by its macro below); a stray $ is nothing; anything else is text
    [/\\qvar@construct\{([^{}]*)\}/g, function (whole, content) {
      if (/^\s*[A-Za-z][0-9]*\s*$/.test(content)) return whole;
      return content.trim() === "$" ? "" : "\\text{" + content.replace(/[\\$#%&_^~]/g, "") + "}";
    }],
    // the end of a paragraph LaTeXML kept, and MathJax's loading of an extension
    [/(?<!\\)\\par(?![a-zA-Z])/g, ""],
    [/(?<!\\)\\require\s*(\{[^{}]*\}|\\[a-zA-Z]+)/g, ""],
    // environments KaTeX draws in display mode only, as their forms that draw anywhere, so a formula reads the same
    // in a snippet or a list (inline) as on its post's page: {split} alone was an error inline
    [/\\(begin|end)\{(split|align\*?|flalign\*?|multline\*?)\}/g, "\\$1{aligned}"],
    [/\\(begin|end)\{(gather\*?|equation\*?|displaymath)\}/g, "\\$1{gathered}"],
    [/\\(begin|end)\{alignat\*?\}/g, "\\$1{alignedat}"],
    [/\\begin\{eqnarray\*?\}/g, "\\begin{array}{rcl}"],
    [/\\end\{eqnarray\*?\}/g, "\\end{array}"],
    // alignment rows LaTeXML kept without their environment, a&=b\\c&=d (an escaped \& or an HTML entity is no column)
    [/^(?![\s\S]*\\(?:begin|eqalign|matrix|pmatrix|cases)(?![a-zA-Z]))[\s\S]*(?<!\\)&(?!(?:lt|gt|amp)\b)[\s\S]*$/,
      function (rows) { return "\\begin{aligned}" + rows + "\\end{aligned}"; }],
  ];

  // LaTeXML wrote long formulas over several lines, each broken line ending in `%`; ARQMath's text lost the newlines,
  // so to KaTeX every such `%` comments out the rest of its formula. Like the parser (mathparse/latex_tokens.py),
  // a formula without a newline drops its unescaped `%` instead. Also used by search.js for data-latex formulas.
  function texSource(latex) {
    const uncommented = latex.indexOf("\n") >= 0 ? latex :
      latex.replace(/\\[\s\S]|%/g, function (match) { return match === "%" ? "" : match; });
    return REWRITES.reduce(function (text, rule) { return text.replace(rule[0], rule[1]); }, uncommented);
  }
  window.texSource = texSource;

  // A query variable, \qvar{x} (mathparse/latex_commands.py), stands for any sub-expression: drawn as its boxed name.
  // LaTeXML writes it \qvar@construct{x0} (NTCIR's topics); KaTeX reads `@` as a letter of a command's name.
  // A fresh copy for each render, since KaTeX keeps what a formula's \gdef defines in the object it is given.
  function texMacros() {
    const variable = "\\boxed{\\mathsf{#1}}";
    // and plain TeX's \mbox and \eqalign, which people still write
    return { "\\qvar": variable, "\\qvar@construct": variable, "\\mbox": "\\text{#1}",
             "\\eqalign": "\\begin{aligned}#1\\end{aligned}" };
  }
  window.texMacros = texMacros;

  const OPTIONS = { throwOnError: false, trust: false, maxSize: 20, strict: "ignore" };

  // The same list is in searchapp/web/snippets.py (ENVIRONMENTS); each also starred.
  const ENVIRONMENTS = ["equation", "align", "alignat", "gather", "multline", "flalign", "eqnarray", "displaymath",
    "split", "aligned", "alignedat", "gathered", "cases", "array", "matrix", "pmatrix", "bmatrix", "Bmatrix",
    "vmatrix", "Vmatrix", "smallmatrix", "CD"];
  const OPENING = new RegExp("\\\\\\$|\\$\\$|\\$|\\\\\\[|\\\\\\(|\\\\begin\\{(" + ENVIRONMENTS.join("|") + ")(\\*?)\\}");
  const CLOSING = { "$$": "$$", "$": "$", "\\[": "\\]", "\\(": "\\)" };
  const SKIPPED = ["SCRIPT", "NOSCRIPT", "STYLE", "TEXTAREA", "PRE", "CODE", "OPTION"];

  // Where `closing` first stands outside braces from `index`, a backslash escaping the character after it; -1 if
  // nowhere (auto-render's findEndOfMath).
  function endOfMath(text, closing, index) {
    let depth = 0;
    for (; index < text.length; index++) {
      const character = text[index];
      if (depth <= 0 && text.startsWith(closing, index)) return index;
      if (character === "\\") index++;
      else if (character === "{") depth++;
      else if (character === "}") depth--;
    }
    return -1;
  }

  // A text as pieces: {text} and {math, display}. An opening never closed leaves the rest as text, as auto-render does.
  function texSplit(text) {
    const pieces = [];
    let words = "";
    let rest = text;
    for (let match = OPENING.exec(rest); match; match = OPENING.exec(rest)) {
      words += rest.slice(0, match.index);
      rest = rest.slice(match.index);
      const opening = match[0];
      if (opening === "\\$") {
        words += "$";
        rest = rest.slice(2);
        continue;
      }
      const closing = match[1] ? "\\end{" + match[1] + match[2] + "}" : CLOSING[opening];
      const end = endOfMath(rest, closing, opening.length);
      if (end < 0) break;
      if (words) pieces.push({ text: words });
      words = "";
      // an environment is drawn whole, a delimited formula without its delimiters
      pieces.push({ math: match[1] ? rest.slice(0, end + closing.length) : rest.slice(opening.length, end),
                    display: Boolean(match[1]) || opening === "$$" || opening === "\\[" });
      rest = rest.slice(end + closing.length);
    }
    if (words + rest) pieces.push({ text: words + rest });
    return pieces;
  }
  window.texSplit = texSplit;

  // Snippets and lists draw display math inline: a line of context must not become a stack of centred blocks.
  const INLINE = ".snippet, .occurrences, .answers, .post-list";

  function drawn(pieces, inline) {
    const fragment = document.createDocumentFragment();
    pieces.forEach(function (piece) {
      if (piece.text !== undefined) {
        fragment.appendChild(document.createTextNode(piece.text));
        return;
      }
      const span = document.createElement("span");
      if (!piece.display || inline) span.className = "inline-math";  // scrolls by itself when too wide (site.css)
      try {
        window.katex.render(texSource(piece.math), span,
                            Object.assign({ displayMode: piece.display && !inline, macros: texMacros() }, OPTIONS));
      } catch (err) {  // throwOnError: false draws a parse error as its source; anything else ends up here
        span.textContent = piece.math;
        span.classList.add("unrendered");
      }
      fragment.appendChild(span);
    });
    return fragment;
  }

  // Each run of text nodes (a text split by the parser is one run) is split and drawn; elements are walked into,
  // except code, form fields and what KaTeX drew.
  function renderIn(el, inline) {
    let node = el.firstChild;
    while (node) {
      let next = node.nextSibling;
      if (node.nodeType === Node.TEXT_NODE) {
        let text = node.textContent;
        while (next && next.nodeType === Node.TEXT_NODE) {
          text += next.textContent;
          const merged = next;
          next = next.nextSibling;
          merged.remove();
        }
        const pieces = texSplit(text);
        if (pieces.length !== 1 || pieces[0].text !== text) el.replaceChild(drawn(pieces, inline), node);
        else if (node.textContent !== text) node.textContent = text;
      } else if (node.nodeType === Node.ELEMENT_NODE && SKIPPED.indexOf(node.nodeName) < 0 &&
                 !node.classList.contains("katex")) {
        renderIn(node, inline);
      }
      node = next;
    }
  }

  function render(el) {
    if (!window.katex) return;  // without it the text stays readable, formulas as their source
    try {
      renderIn(el, Boolean(el.closest(INLINE)));
    } catch (err) {
      el.classList.add("unrendered");  // one element's failure must not stop the others
    }
  }
  window.renderTexText = render;  // the question preview (question.js) draws what is typed with the same options

  // A formula, a tree or a long word too wide for the screen scrolls by itself rather than widening the page
  // (site.css); such a region takes the keyboard focus, so that it can be scrolled without a mouse.
  const SCROLLERS = ".katex-display, .tree-box, .snippet .math, .matched .math, .occurrences .math, .inline-math, " +
    ".formula-link, .formula-hero, .nearest a, .formula-hits h3, .formula-hits li, .preview, pre";

  function markScrollable() {
    document.querySelectorAll(SCROLLERS).forEach(function (el) {
      const style = getComputedStyle(el);
      const scrolls = (el.scrollWidth > el.clientWidth + 1 && /auto|scroll/.test(style.overflowX)) ||
        (el.scrollHeight > el.clientHeight + 1 && /auto|scroll/.test(style.overflowY));
      if (scrolls && !el.hasAttribute("tabindex") && !el.matches("a") && !el.closest("[aria-hidden=true]")) {
        el.tabIndex = 0;
      }
    });
  }

  function start() {
    document.querySelectorAll(".tex-text").forEach(render);
    window.addEventListener("load", markScrollable);  // after search.js has drawn its formulas
    if (document.fonts) document.fonts.ready.then(markScrollable);
    // A link to a formula (/post/ID#formula-3) lands on it; rendering has moved it since the browser scrolled.
    const target = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)));
    if (target) target.scrollIntoView({ block: "center" });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
