// Renders the math written into post text (elements marked .tex-text) with KaTeX's auto-render extension.
// The delimiters are the ones ml.extraction reads formulas by. Post text is untrusted: trust: false refuses
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
    // LaTeXML's marks of stray characters, as the parser reads them (ml/formula/normalise.py): a query variable is a
    // letter and digits (boxed by its macro below); a stray $ is nothing; anything else is text
    [/\\qvar@construct\{([^{}]*)\}/g, function (whole, content) {
      if (/^\s*[A-Za-z][0-9]*\s*$/.test(content)) return whole;
      return content.trim() === "$" ? "" : "\\text{" + content.replace(/[\\$#%&_^~]/g, "") + "}";
    }],
    // the end of a paragraph LaTeXML kept, and MathJax's loading of an extension
    [/(?<!\\)\\par(?![a-zA-Z])/g, ""],
    [/(?<!\\)\\require\s*(\{[^{}]*\}|\\[a-zA-Z]+)/g, ""],
    // alignment rows LaTeXML kept without their environment, a&=b\\c&=d (an escaped \& or an HTML entity is no column)
    [/^(?![\s\S]*\\(?:begin|eqalign|matrix|pmatrix|cases)(?![a-zA-Z]))[\s\S]*(?<!\\)&(?!(?:lt|gt|amp)\b)[\s\S]*$/,
      function (rows) { return "\\begin{aligned}" + rows + "\\end{aligned}"; }],
  ];

  // LaTeXML wrote long formulas over several lines, each broken line ending in `%`; ARQMath's text lost the newlines,
  // so to KaTeX every such `%` comments out the rest of its formula. Like the parser (ml/formula/latex_tokens.py),
  // a formula without a newline drops its unescaped `%` instead. Also used by search.js for data-latex formulas.
  function texSource(latex) {
    const uncommented = latex.indexOf("\n") >= 0 ? latex :
      latex.replace(/\\[\s\S]|%/g, function (match) { return match === "%" ? "" : match; });
    return REWRITES.reduce(function (text, rule) { return text.replace(rule[0], rule[1]); }, uncommented);
  }
  window.texSource = texSource;

  // A query variable, \qvar{x} (ml/formula/latex_commands.py), stands for any sub-expression: drawn as its boxed name.
  // LaTeXML writes it \qvar@construct{x0} (NTCIR's topics); KaTeX reads `@` as a letter of a command's name.
  // A fresh copy for each render, since KaTeX keeps what a formula's \gdef defines in the object it is given.
  function texMacros() {
    const variable = "\\boxed{\\mathsf{#1}}";
    // and plain TeX's \mbox and \eqalign, which people still write
    return { "\\qvar": variable, "\\qvar@construct": variable, "\\mbox": "\\text{#1}",
             "\\eqalign": "\\begin{aligned}#1\\end{aligned}" };
  }
  window.texMacros = texMacros;

  const OPTIONS = {
    delimiters: [
      { left: "$$", right: "$$", display: true },
      { left: "$", right: "$", display: false },
      { left: "\\[", right: "\\]", display: true },
      { left: "\\(", right: "\\)", display: false },
    ],
    throwOnError: false,
    trust: false,
    maxSize: 20,
    strict: "ignore",
    preProcess: texSource,
  };

  function render(el) {
    if (!window.renderMathInElement) return;  // without it the text stays readable, formulas as their source
    try {
      window.renderMathInElement(el, Object.assign({ macros: texMacros() }, OPTIONS));
    } catch (err) {
      el.classList.add("unrendered");  // one element's failure must not stop the others
    }
  }
  window.renderTexText = render;  // the question preview (question.js) draws what is typed with the same options

  // A formula, a tree or a long word too wide for the screen scrolls by itself rather than widening the page
  // (site.css); such a region takes the keyboard focus, so that it can be scrolled without a mouse.
  const SCROLLERS = ".katex-display, .tree-box, .snippet .math, .matched .math, .formula-link, .formula-hero, " +
    ".formula-hits h3, .formula-hits li, .preview, pre";

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
