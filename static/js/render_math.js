// Renders the math written into post text (elements marked .tex-text) with KaTeX's auto-render extension.
// The delimiters are the ones ml.extraction reads formulas by. Post text is untrusted: trust: false refuses
// \href, \url, \includegraphics and friends, and maxSize caps \rule and spaces that could cover the page.
// throwOnError: false shows a formula KaTeX cannot read as its source and goes on with the next one; strict: "ignore"
// because people write Unicode primes and the like into posts, and a console warning per formula helps no one.
(function () {
  "use strict";

  // LaTeXML wrote long formulas over several lines, each broken line ending in `%`; ARQMath's text lost the newlines,
  // so to KaTeX every such `%` comments out the rest of its formula. Like the parser (ml/formula/latex_tokens.py),
  // a formula without a newline drops its unescaped `%` instead. Also used by search.js for data-latex formulas.
  function texSource(latex) {
    if (latex.indexOf("\n") >= 0) return latex;
    return latex.replace(/\\[\s\S]|%/g, function (match) { return match === "%" ? "" : match; });
  }
  window.texSource = texSource;

  // A query variable, \qvar{x} (ml/formula/latex_commands.py), stands for any sub-expression: drawn as its boxed name.
  // LaTeXML writes it \qvar@construct{x0} (NTCIR's topics); KaTeX reads `@` as a letter of a command's name.
  // A fresh copy for each render, since KaTeX keeps what a formula's \gdef defines in the object it is given.
  function texMacros() {
    const variable = "\\boxed{\\mathsf{#1}}";
    return { "\\qvar": variable, "\\qvar@construct": variable };
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

  function start() {
    document.querySelectorAll(".tex-text").forEach(render);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
