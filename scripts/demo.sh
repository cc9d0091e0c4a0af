#!/usr/bin/env bash
# The main job: build the npm package, run the agent-loop demo in Node against the embedded
# scripted model on 127.0.0.1 (offline, no key), then — in an interactive terminal — serve the
# www demo page (set DEMO_SERVE=0 to skip it, DEMO_SERVE=1 to force it).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
./scripts/build.sh
node demo/main.mjs
if [ "${DEMO_SERVE:-}" = 1 ] || { [ "${DEMO_SERVE:-}" != 0 ] && [ -t 0 ] && [ -t 1 ]; }; then
  exec node demo/serve.mjs "${DEMO_PORT:-8080}"
fi
echo "the www demo page: node demo/serve.mjs, then open http://127.0.0.1:8080/www/index.html"
