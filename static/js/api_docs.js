/* /api/docs: Swagger UI (vendored from npm by scripts/setup.sh) draws the site's OpenAPI document: each operation
   opens ready to try. Swagger UI leaves its parameter fields, request bodies and server list without an
   accessible name (the server list's label holds only the list itself); each gets one from the row or block it
   stands in, as it appears (React re-creates them when an
   operation is opened again, and keeps attributes it does not own). */
function nameFor(control) {
  const row = control.closest("tr[data-param-name]");
  if (row) return `${row.dataset.paramName} (${row.dataset.paramIn} parameter)`;
  if (control.closest(".body-param")) return "Request body (JSON)";
  if (control.id === "servers") return "Server";
  return null;
}

function nameUnlabelledControls(root) {
  for (const control of root.querySelectorAll("input, select, textarea")) {
    if (control.hasAttribute("aria-label")) continue;
    const name = nameFor(control);
    if (name) control.setAttribute("aria-label", name);
  }
}

window.addEventListener("DOMContentLoaded", () => {
  const root = document.getElementById("api-docs");
  root.setAttribute("aria-busy", "true");  // until the schema is drawn: screen readers wait, and so do the tests
  new MutationObserver(() => nameUnlabelledControls(root)).observe(root, {childList: true, subtree: true});
  SwaggerUIBundle({url: root.dataset.schemaUrl, domNode: root, deepLinking: false, tryItOutEnabled: true,
                   docExpansion: "list", defaultModelsExpandDepth: 0,
                   onComplete: () => root.setAttribute("aria-busy", "false")});
});
