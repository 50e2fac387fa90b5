import { DioscError } from '@diosc/protocol';
import { configuresPublicOrigin, type ServerConfig } from '../config.js';
import { recordedServerUrl, serverUrlFile } from '../server-url-record.js';

/** The `/mcp` address a command prints, and why that one when the configuration did not name it. */
export interface McpUrl {
  url: string;
  /** Said under the address when it is a guess: recorded by the last start, or the default. */
  note?: string;
}

/** `--url`: the server's origin as clients reach it (scheme, host, port; no path). */
function originOf(flag: string): string {
  let url: URL | undefined;
  try {
    url = new URL(flag);
  } catch {
    url = undefined;
  }
  const origin = url && (url.protocol === 'http:' || url.protocol === 'https:') ? url.origin : undefined;
  if (!origin || flag.replace(/\/$/, '') !== origin) {
    throw new DioscError(
      'invalid_input',
      `--url takes the server's origin, such as http://localhost:4000 (given: ${flag.slice(0, 200)}).`,
    );
  }
  return origin;
}

/**
 * Where the server this CLI works on serves `/mcp`, first of: `--url`; the public origin the
 * configuration names (DIOSC_PUBLIC_ORIGIN, DIOSC_PORT, or DIOSC_CONFIG's file), the server's own
 * rule; the address the server printed when it last started on this data dir (the CLI's
 * environment need not be the server's); else the default `http://localhost:3000`, said to be one.
 */
export function mcpUrlOf({
  config,
  env,
  flag,
}: {
  config: ServerConfig;
  env: NodeJS.ProcessEnv;
  flag: string | undefined;
}): McpUrl {
  if (flag !== undefined) return { url: `${originOf(flag)}/mcp` };
  if (configuresPublicOrigin(env)) return { url: `${config.publicOrigin}/mcp` };
  const recorded = recordedServerUrl(config.dataDir);
  if (recorded) {
    return {
      url: `${recorded}/mcp`,
      note: `(where the server last started, per ${serverUrlFile(config.dataDir)}; --url <origin> names another)`,
    };
  }
  return {
    url: `${config.publicOrigin}/mcp`,
    note: '(the default: DIOSC_PORT and DIOSC_PUBLIC_ORIGIN are unset here and no server has started on this data dir; if yours runs elsewhere, pass --url <origin>)',
  };
}
