// The help texts, apart from the commands: `diosc --help` prints them without loading a command's
// module (the store, the hub, the HTTP server), which is what would make it take seconds.

export const CONNECTIONS_USAGE = `Usage:
  diosc connections create --name <name> --grant <collection:fn,fn> [--grant …] [--expires-days N] [--url <origin>] [--json]
  diosc connections list [--json]
  diosc connections revoke <id>
  diosc connections rotate <id> [--expires-days N] [--url <origin>] [--json]

  --grant <collection:fn,fn> names one collection by its ID (repeat it for more); the IDs, and the
  functions each collection's kind allows, come from \`diosc collections list\`.
  --url <origin> is the server's address for the printed MCP URL (default: DIOSC_PUBLIC_ORIGIN or
  DIOSC_PORT as the server reads them, else where the server last started on this data dir).`;

export const COLLECTIONS_USAGE = `  diosc collections list [--json]     the IDs a --grant names, and the functions each one allows
  diosc collections disconnect <id>   (an external collection's provider source; asks nothing, there is no undo)
  diosc collections reconnect <id>    (refused: see docs/security-model.md, "Source disconnect")`;

export const ASSISTANTS_USAGE = `  diosc assistants create --name <name> [--file spec.json|yaml] [--origin <https://site>]… [--model provider:id]
                          [--base-url <url>] [--instructions <text>] [--provider-key-env VAR] [--json]
  diosc assistants list [--json]
  diosc assistants show <id|name> [--json]
  diosc assistants update <id|name> [the same options as create]
  diosc assistants delete <id|name>`;

export const AUDIT_USAGE = `  diosc audit export --since <time> [--until <time>] [--assistant <id>]
                          the audit of decisions as JSON lines, oldest first; a time is an ISO date
                          or time (2026-12-01, 2026-12-01T10:00:00Z) or a duration back (24h, 7d)`;
