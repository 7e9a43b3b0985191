// The --help text. Its Environment section lists every variable of docs/configuration.md's table
// (tests/cli/help.test.ts compares the two).
export const HELP_TEXT = `svc-gateway: one gateway for chat-completions, messages and generate-content clients on top of core.

Usage:
  svc-gateway [serve] [--port N] [--host ADDR] [--config PATH]
      Serve the gateway (default port 5001, address 0.0.0.0). With no core origin configured it runs
      in demo mode on the built-in core simulator, where any key works: then it listens on 127.0.0.1
      unless --host or SVC_HOST say otherwise.
  svc-gateway demo [--port N] [--host ADDR]
      Start the gateway wired to an in-process core simulator with a demo key and account, and
      print ready-to-paste requests. Listens on 127.0.0.1 unless --host or SVC_HOST say otherwise;
      changes made through the admin API are kept in memory only.
  svc-gateway sim [--port N] [--host ADDR] [--difficulty D] [--seed S]
      Run the core simulator alone (any credentials accepted; 127.0.0.1 unless --host or SVC_HOST).
  svc-gateway version | --version
      Print the version.
  svc-gateway probe [--port N] [--host ADDR]
      GET /healthz on the local gateway; exit 0 when healthy, 1 otherwise (container health checks).
  svc-gateway doctor [--config PATH] [--json]
      Check the config, data directory, core (DNS, TCP, TLS, login path), the clock, each proxy, each
      account's login and Redis; print what to do; exit 0 when nothing failed, 1 otherwise.
  svc-gateway run [--url URL] [--key KEY] -- claude|codex|gemini|opencode [args…]
      Run the agent CLI pointed at this gateway (environment and, where needed, a temporary settings file).
  svc-gateway connect claude|codex|gemini|opencode [--url URL] [--key KEY]
      Print the same settings as shell lines: eval "$(svc-gateway connect codex)".
  svc-gateway help | --help
      This text.

Signals: SIGTERM/SIGINT drain and stop (logged as "draining", then "stopped"); a second one stops at
once (exit 130). SIGHUP reloads the config file without dropping requests.

Environment (docs/configuration.md):
  PORT, SVC_HOST               listen port and address (flags win)
  SVC_CONFIG_PATH              config file (default ./config.json; --config wins)
  SVC_CONFIG_JSON              the whole config as raw JSON or Base64 (container and hosted runs)
  SVC_ENV_WRITEBACK            1: write SVC_CONFIG_JSON to the config file and keep changes there
  SVC_ADMIN_KEY                admin key (generated and printed to stderr when unset)
  SVC_JWT_SECRET               admin token signing secret (same on every instance)
  SVC_CORE_BASE_URL            core's origin (overrides upstream.base_url; unset: demo mode)
  SVC_DATA_DIR                 chat history, raw samples, usage.json (default: the config's folder)
  SVC_TRUSTED_PROXIES          reverse proxies (IPs/CIDRs, comma-separated) whose X-Forwarded-For,
                               Forwarded or X-Real-IP name the client (default: none trusted)
  LOG_LEVEL                    debug | info | warn | error
  SVC_DEV_CAPTURE, SVC_DEV_CAPTURE_LIMIT, SVC_DEV_CAPTURE_MAX_BODY_BYTES
                               dev captures of core traffic (on, 20, 5 MiB)
  SVC_RELEASE_FEED_URL, SVC_RELEASE_FEED_TOKEN
                               repository event feed for /admin/version
  HOST_API_BASE, HOST_TOKEN, HOST_PROJECT_ID, HOST_TEAM_ID
                               hosting sync
  SVC_REDIS_URL                shared state on Redis for several instances
  SVC_STORE_BACKEND            memory | redis
  SVC_REDIS_PREFIX             prefix of every Redis key (default svcgw)
  SVC_HEAP_CENSUS_FILE         SIGUSR2 writes a heap census here (memory investigations; unset: off)
`;
