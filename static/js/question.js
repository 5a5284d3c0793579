// The Answers tab's live preview: the question as typed, its $…$ formulas drawn as the results will show them
// (render_math.js's options). Optional: the form is a plain GET form without it.
(function () {
  "use strict";

  const PREVIEW_DELAY_MS = 150;

  function setup() {
    const input = document.getElementById("question");
    const preview = document.getElementById("question-preview");
    if (!input || !preview || !window.renderTexText) return;
    let timer = null;
    function update() {
      preview.textContent = input.value;  // as text, never HTML; render_math.js then replaces the $…$ spans
      preview.hidden = !input.value.trim();
      if (!preview.hidden) window.renderTexText(preview);
    }
    input.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(update, PREVIEW_DELAY_MS);
    });
    input.addEventListener("keydown", function (event) {  // Enter writes a new line in a textarea
      if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        input.form.requestSubmit();
      }
    });
    // Beside the answers the preview would repeat the question they answer: it shows once the question is edited.
    if (!document.getElementById("results-title")) update();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setup);
  else setup();
})();
