#!/usr/bin/env bash
# Installs the pinned agent CLIs and the Vercel AI SDK of the clients suite (tests/clients/package.json,
# exact versions, locked by tests/clients/package-lock.json) into tests/clients/node_modules, from the npm
# registry only. Once they are there, `bun test` runs tests/clients/*.test.ts instead of skipping them.
# Needs node >= 20 and npm on PATH (Gemini CLI runs on node; Claude Code and Codex are native binaries,
# fetched as optional npm packages of their own).
set -euo pipefail
cd "$(dirname "$0")/../tests/clients"
# No update notifier, audit or funding calls: the registry is the only host npm talks to.
export npm_config_update_notifier=false npm_config_audit=false npm_config_fund=false
# Claude Code's postinstall copies its native binary (from the optional platform package) over bin/claude.exe.
npm ci --no-audit --no-fund --loglevel=error
node_modules/.bin/claude --version
node_modules/.bin/codex --version
node node_modules/@google/gemini-cli/bundle/gemini.js --version
