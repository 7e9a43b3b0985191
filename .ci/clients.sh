#!/usr/bin/env bash
# Installs the pinned agent CLIs, the Vercel AI SDK and the OpenAI Agents SDK of the clients suite (tests/clients/package.json,
# exact versions, locked by tests/clients/package-lock.json) into tests/clients/node_modules, from the npm
# registry only. Once they are there, `bun test` runs tests/clients/*.test.ts instead of skipping them.
# Needs node >= 20 and npm on PATH (Gemini CLI runs on node; Claude Code, Codex and opencode are native
# binaries, fetched as optional npm packages of their own).
set -euo pipefail
cd "$(dirname "$0")/../tests/clients"
# No update notifier, audit or funding calls: the registry is the only host npm talks to.
export npm_config_update_notifier=false npm_config_audit=false npm_config_fund=false
# Claude Code's postinstall copies its native binary (from the optional platform package) over bin/claude.exe.
npm ci --no-audit --no-fund --loglevel=error
node_modules/.bin/claude --version
node_modules/.bin/codex --version
node node_modules/@google/gemini-cli/bundle/gemini.js --version
# opencode's bin/opencode.exe is its native binary, linked from the optional platform package by its postinstall.
node_modules/.bin/opencode --version
