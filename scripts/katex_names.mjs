#!/usr/bin/env node
// Writes corpora/documents/katex_names.txt: the commands and environments the installed KaTeX renders, which
// corpora/documents/renderable.py reads to keep a formula renderable. Run it again after updating KaTeX:
//
//     node scripts/katex_names.mjs            (or: node scripts/katex_names.mjs OUTPUT)
//
// KaTeX has no public list of its names, so the candidates are the string literals of its own source that look
// like one ("\\frac", "matrix"), and a candidate is kept when KaTeX does not call it undefined: a command with
// 0, 1 or 2 braced arguments, an environment in inline and in display mode.
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const katexDir = join(root, "node_modules", "katex");
const katex = createRequire(import.meta.url)(join(katexDir, "dist", "katex.js"));
const output = process.argv[2] ?? join(root, "corpora", "documents", "katex_names.txt");

function error(latex, displayMode = false) {
  try {
    katex.renderToString(latex, { throwOnError: true, trust: false, strict: "ignore", displayMode });
    return "";
  } catch (caught) {
    return String(caught.rawMessage ?? caught.message);
  }
}

function literals(source, pattern) {
  const found = new Set();
  for (const match of source.matchAll(pattern)) found.add(match[2]);
  return found;
}

// The fewest braced arguments the command renders with in math (and in text, inside `\text{…}`): "0", "1", "2",
// "-" when it is known but none of these renders (`\left`, `\end`), "no" when KaTeX calls it undefined there
// (or, in text, refuses it there: `\text{\frac12}`).
function commandArguments(name, text) {
  let known = false;
  for (const [count, suffix] of [[0, ""], [1, "{x}"], [2, "{x}{y}"]]) {
    const message = error(text ? `\\text{\\${name}${suffix}}` : `\\${name}${suffix}`);
    if (!message) return String(count);
    known ||= !message.startsWith(`Undefined control sequence: \\${name}`) && !message.includes("in text mode");
  }
  return known ? "-" : "no";
}

// "inline" or "display" (an environment KaTeX sets only in display mode), or null when it does not know it.
function environmentMode(name) {
  const inline = error(`\\begin{${name}}x\\end{${name}}`);
  if (inline.startsWith("No such environment")) return null;
  return inline.includes("only in display mode") ? "display" : "inline";
}

const source = readFileSync(join(katexDir, "dist", "katex.mjs"), "utf8");
const commandCandidates = literals(source, /(["'])\\\\([A-Za-z@]+)\1/g);
for (let code = 32; code < 127; code += 1) {
  const char = String.fromCharCode(code);
  if (!/[A-Za-z@]/.test(char)) commandCandidates.add(char);
}
const environmentCandidates = literals(source, /(["'])([A-Za-z]+\*?)\1/g);

// `\show` and `\message` print, and a missing glyph warns: probing says nothing
const log = console.log;
console.log = console.warn = console.error = () => {};
const lines = [
  `# KaTeX ${katex.version}: the commands and environments it renders; written by scripts/katex_names.mjs`,
  "# \\name<TAB>math<TAB>text: a command and the fewest braced arguments it renders with in math and in text",
  "# (0, 1, 2; - known but none of these renders; no: undefined there)",
  "# {name}<TAB>mode: an environment, inline (any mode) or display (display mode only)",
];
for (const name of [...commandCandidates].sort()) {
  const [math, text] = [commandArguments(name, false), commandArguments(name, true)];
  if (math !== "no" || text !== "no") lines.push(`\\${name}\t${math}\t${text}`);
}
for (const name of [...environmentCandidates].sort()) {
  const mode = environmentMode(name);
  if (mode !== null) lines.push(`{${name}}\t${mode}`);
}
writeFileSync(output, `${lines.join("\n")}\n`);
log(`${output}: ${lines.length - 4} names of KaTeX ${katex.version}`);
