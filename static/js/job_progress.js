// Live progress of an indexing job: poll its JSON once a second until it finishes.
(function () {
  "use strict";
  const POLL_MS = 1000;
  const root = document.getElementById("job-progress");
  if (!root) return;

  const cancel = document.getElementById("job-cancel");
  if (cancel) {
    cancel.addEventListener("submit", function (event) {
      // the job cannot be resumed once cancelled; what it stored stays
      if (!window.confirm("Cancel this job? It stops after its current chunk and cannot be resumed.")) {
        event.preventDefault();
      }
    });
  }

  function show(p) {
    if (cancel && p.finished) cancel.hidden = true;
    document.getElementById("job-bar").value = p.percent;
    const state = document.getElementById("job-state");
    state.textContent = p.state;
    state.dataset.state = p.state;
    document.getElementById("job-counts").textContent = p.summary;
    const message = document.getElementById("job-message");
    message.hidden = !p.message;
    message.textContent = p.message;
    document.getElementById("job-error-count").textContent =
      "(" + p.errors.length + (p.errors_total > p.errors.length ? " of " + p.errors_total : "") + ")";
    const list = document.getElementById("job-errors");
    list.replaceChildren.apply(list, p.errors.map(function (e) {
      const item = document.createElement("li");
      // textContent: file contents are untrusted; a note (a file read with another) has no record number
      item.textContent = (e.note ? "note" : p.unit + " " + e.line) + ": " + e.message;
      if (e.kind) {  // a document's problem: what went wrong, as a stable name
        const kind = document.createElement("span");
        kind.className = "problem-kind";
        kind.textContent = e.kind;
        item.append(" ", kind);
      }
      return item;
    }));
  }

  function poll() {
    fetch(root.dataset.url, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (response) { return response.json(); })
      .then(function (p) { show(p); if (!p.finished) setTimeout(poll, POLL_MS); })
      .catch(function () { setTimeout(poll, POLL_MS * 3); });
  }
  if (root.dataset.finished !== "true") poll();
})();
