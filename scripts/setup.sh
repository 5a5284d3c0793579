#!/usr/bin/env bash
# Installs what MathSearch needs and is missing: Debian packages, the Python venv, vendored KaTeX.
# Safe to run again: each step checks first, so a second run takes seconds.
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
command -v chromium >/dev/null 2>&1 || need_apt+=(chromium)       # browser for the end-to-end tests
command -v npm >/dev/null 2>&1 || need_apt+=(nodejs npm)           # fetches KaTeX from the npm registry
if ((${#need_apt[@]})); then
  echo "setup: installing Debian packages: ${need_apt[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >/dev/null
fi

if [ ! -x .venv/bin/python ]; then
  echo "setup: creating .venv"
  python3 -m venv .venv
fi
if [ ! -f .venv/.installed ] || [ requirements.txt -nt .venv/.installed ]; then
  echo "setup: installing Python packages (about a minute the first time)"
  .venv/bin/pip install -q --disable-pip-version-check -r requirements.txt
  touch .venv/.installed
fi

katex=static/vendor/katex
if [ ! -f "$katex/katex.min.js" ] || [ ! -f "$katex/contrib/auto-render.min.js" ] || [ package.json -nt "$katex/katex.min.js" ]; then
  echo "setup: vendoring KaTeX from the npm registry"
  npm install --no-audit --no-fund --loglevel=error >/dev/null
  rm -rf "$katex" && mkdir -p "$katex/fonts" "$katex/contrib"
  cp node_modules/katex/dist/katex.min.js node_modules/katex/dist/katex.min.css "$katex/"
  cp node_modules/katex/dist/fonts/*.woff2 "$katex/fonts/"
  cp node_modules/katex/dist/contrib/auto-render.min.js "$katex/contrib/"  # no page loads it since render_math.js splits text itself
fi
