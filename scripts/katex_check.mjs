#!/usr/bin/env node
// Which formulas the site's KaTeX (static/vendor/katex) cannot render, with the options the site renders with.
//
//     printf '%s\n' '{"latex": "\\frac12", "display": false}' | node scripts/katex_check.mjs
//
// stdin: one JSON object a line, {"latex": "…", "display": true|false}. stdout: one line per failure,
// {"index": n, "error": "…", "position": p} (n counts input lines from 0; position in the LaTeX, or null), then
// a summary {"katex": version, "formulas": N, "failed": F, "undefined": {"\\foo": count, …}}, the undefined
// commands and environments most frequent first. A line that is not such an object ends the run with exit 2.
// With --site, each formula is first rewritten as the site's pages rewrite it (texSource and texMacros of
// static/js/render_math.js: LaTeXML's and MathJax's spellings, display-only environments as inline ones).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { runInNewContext } from "node:vm";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const katex = createRequire(import.meta.url)(join(root, "static", "vendor", "katex", "katex.min.js"));
const site = process.argv.includes("--site") ? sitePage() : null;
const UNDEFINED = /^(?:Undefined control sequence: (\\\S+)|No such environment: (\S+))/;

// render_math.js's functions, from the script run against a page that is still loading (so it draws nothing).
function sitePage() {
  const window = {};
  const document = { readyState: "loading", addEventListener() {} };
  runInNewContext(readFileSync(join(root, "static", "js", "render_math.js"), "utf8"), { window, document });
  return window;
}

// The HTML alone: the MathML tree adds 60 % to the time and failed no formula the HTML passed (the 24,642 of
// texlive-science-doc).
function failure(latex, displayMode) {
  const options = { throwOnError: true, trust: false, strict: "ignore", maxSize: 20, displayMode, output: "html" };
  try {
    if (site) katex.renderToString(site.texSource(latex), { ...options, macros: site.texMacros() });
    else katex.renderToString(latex, options);
    return null;
  } catch (caught) {
    if (!(caught instanceof katex.ParseError)) return { error: `${caught.name}: ${caught.message}`, position: null };
    return { error: caught.rawMessage, position: caught.position ?? null };
  }
}

// `\message`, `\show` and missing glyphs print to the console; stdout carries JSON only.
console.log = console.warn = console.error = () => {};
const out = [];
const undefinedNames = new Map();
let index = 0;
let failed = 0;
for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  if (!line.trim()) continue;
  let item;
  try {
    item = JSON.parse(line);
  } catch {
    item = null;
  }
  if (typeof item?.latex !== "string") {
    process.stderr.write(`line ${index + 1}: not a {"latex": …, "display": …} object\n`);
    process.exit(2);
  }
  const found = failure(item.latex, Boolean(item.display));
  if (found !== null) {
    failed += 1;
    out.push(JSON.stringify({ index, ...found }));
    const name = UNDEFINED.exec(found.error);
    if (name) {
      const key = name[1] ?? `{${name[2]}}`;
      undefinedNames.set(key, (undefinedNames.get(key) ?? 0) + 1);
    }
    if (out.length >= 1000) process.stdout.write(`${out.splice(0).join("\n")}\n`);
  }
  index += 1;
}
const counts = Object.fromEntries([...undefinedNames].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)));
out.push(JSON.stringify({ katex: katex.version, formulas: index, failed, undefined: counts }));
process.stdout.write(`${out.join("\n")}\n`);
