#!/usr/bin/env bash
# The main job: build the npm package and run the agent-loop demo in Node against the embedded
# scripted model on 127.0.0.1 (offline, no key).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
./scripts/build.sh
node demo/main.mjs
