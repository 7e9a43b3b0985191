export const HELP_TEXT = `svc-gateway: one gateway for chat-completions, messages and generate-content clients on top of core.

Usage:
  svc-gateway [serve] [--port N] [--host ADDR] [--config PATH]
      Serve the gateway (default port 5001). With no core origin configured it runs in demo mode
      on the built-in core simulator.
  svc-gateway demo [--port N]
      Start the gateway wired to an in-process core simulator with a demo key and account, and
      print ready-to-paste requests.
  svc-gateway sim [--port N] [--difficulty D] [--seed S]
      Run the core simulator alone.
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

Signals: SIGTERM/SIGINT drain and stop; SIGHUP reloads the config file without dropping requests.

Environment:
  PORT, SVC_HOST               listen port and address
  SVC_CONFIG_PATH              config file (default ./config.json)
  SVC_CONFIG_JSON              config as raw JSON or Base64 (container and hosted runs)
  SVC_ADMIN_KEY                admin key (generated and printed to stderr when unset)
  SVC_CORE_BASE_URL            core's origin (overrides upstream.base_url)
  LOG_LEVEL                    debug | info | warn | error
`;
