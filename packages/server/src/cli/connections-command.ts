import { parseArgs } from 'node:util';
import { DioscError } from '@diosc/protocol';
import { createAuditRecorder } from '../audit/audit-recorder.js';
import { systemClock } from '../clock.js';
import { type ConnectionView, createConnections } from '../connections/connections.js';
import { formatGrant, parseGrantSpecs } from './grant-spec.js';
import { firstRunLines, openLocalStore } from './local-store.js';
import { type McpUrl, mcpUrlOf } from './mcp-url.js';
import { CONNECTIONS_USAGE } from './usage.js';

const DAY_MS = 24 * 60 * 60 * 1000;

function status(connection: ConnectionView, now: number): string {
  if (connection.revokedAt) return 'revoked';
  if (connection.tokenExpiresAt && Date.parse(connection.tokenExpiresAt) <= now) return 'expired';
  return 'active';
}

function expiresInMs(days: string | undefined): number | undefined {
  if (days === undefined) return undefined;
  const value = Number(days);
  if (!Number.isInteger(value) || value < 1 || value > 3650) {
    throw new DioscError('invalid_input', '--expires-days takes a whole number of days from 1 to 3650.');
  }
  return value * DAY_MS;
}

/** `diosc connections …`: HTTP MCP connections on the local store, for first use and automation. */
export async function connectionsCommand(
  argv: string[],
  out: (line: string) => void,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      grant: { type: 'string', multiple: true },
      'expires-days': { type: 'string' },
      url: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const [action, id] = positionals;
  if (values.help) return out(CONNECTIONS_USAGE);
  if (!action || !['create', 'list', 'revoke', 'rotate'].includes(action)) {
    throw new DioscError('invalid_input', CONNECTIONS_USAGE);
  }
  if ((action === 'revoke' || action === 'rotate') && !id) {
    throw new DioscError('invalid_input', `Give the connection ID: diosc connections ${action} <id>`);
  }
  const local = await openLocalStore(env);
  const printUrl = (mcp: McpUrl) => {
    out(`  MCP URL: ${mcp.url}`);
    if (mcp.note) out(`           ${mcp.note}`);
  };
  try {
    for (const line of firstRunLines(local.owner)) out(line);
    const connections = createConnections(
      local.store,
      systemClock,
      createAuditRecorder(systemClock, local.config.instanceId),
    );
    const accountId = local.owner.accountId;
    const mcp = () => mcpUrlOf({ config: local.config, env, flag: values.url });

    if (action === 'create') {
      if (!values.name?.trim()) throw new DioscError('invalid_input', '--name is required.');
      const url = mcp();
      const grant = await connections.checkGrant(accountId, parseGrantSpecs(values.grant ?? []));
      const { connection, token } = await connections.createMcp(accountId, {
        displayName: values.name.trim().slice(0, 100),
        grant,
        expiresInMs: expiresInMs(values['expires-days']),
        provenance: 'owner-cli',
      });
      if (values.json) return out(JSON.stringify({ connection, token, url: url.url }));
      out(`Created connection ${connection.id} "${connection.displayName}"`);
      out(`  Grant:   ${formatGrant(connection.grant)}`);
      out(`  Expires: ${connection.tokenExpiresAt ?? 'never'}`);
      printUrl(url);
      out(`  Token (shown once; copy it now): ${token}`);
      return;
    }
    if (action === 'list') {
      const list = await connections.list(accountId, 'http_mcp');
      if (values.json) return out(JSON.stringify(list));
      if (list.length === 0)
        return out('No HTTP MCP connections yet. Create one with: diosc connections create');
      const now = Date.now();
      for (const connection of list) {
        out(`${connection.id}  ${status(connection, now).padEnd(7)}  ${connection.displayName}`);
        out(`    grant: ${formatGrant(connection.grant)}`);
        out(
          `    created ${connection.createdAt}, last used ${connection.lastUsedAt ?? 'never'}, expires ${connection.tokenExpiresAt ?? 'never'}`,
        );
      }
      return;
    }
    if (action === 'revoke') {
      const connection = await connections.revoke(accountId, id!);
      out(`Revoked connection ${connection.id} "${connection.displayName}"; its token no longer works.`);
      return;
    }
    const url = mcp();
    const { connection, token } = await connections.rotate(
      accountId,
      id!,
      expiresInMs(values['expires-days']),
    );
    if (values.json) return out(JSON.stringify({ connection, token, url: url.url }));
    out(`Rotated the token of ${connection.id} "${connection.displayName}"; the old token no longer works.`);
    printUrl(url);
    out(`  Token (shown once; copy it now): ${token}`);
  } finally {
    await local.store.close();
  }
}
