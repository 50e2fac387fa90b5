import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** Server configuration. Read from a JSON file (DIOSC_CONFIG) and environment variables; env wins. */
export interface ServerConfig {
  host: string;
  port: number;
  /** The exact origin browsers use to reach the portal; owner mutations must carry it. */
  publicOrigin: string;
  /** Extra origins allowed to call /mcp from a browser (none by default). */
  mcpAllowedOrigins: string[];
  dataDir: string;
  databaseUrl: string | undefined;
  ownerEmail: string;
  /** When set, the first-run owner gets this password instead of a generated one. */
  ownerPassword: string | undefined;
  logLevel: string;
  /** Serve the built portal from this folder (defaults to packages/portal/dist when present). */
  portalDir: string | undefined;
  /** Serve the built kit (`/kit/diosc-kit.js`) from this folder (defaults to packages/kit/dist). */
  kitDir: string | undefined;
  /** 32-byte key (hex or base64) that encrypts stored secrets; the same on every instance. */
  secretKey: string | undefined;
  /** A JSON or YAML file of assistants to create or update at start (kept in git by an operator). */
  assistantsFile: string | undefined;
}

type FileConfig = Partial<Record<keyof ServerConfig, unknown>>;

const ENV: Record<string, keyof ServerConfig> = {
  DIOSC_HOST: 'host',
  DIOSC_PORT: 'port',
  DIOSC_PUBLIC_ORIGIN: 'publicOrigin',
  DIOSC_MCP_ALLOWED_ORIGINS: 'mcpAllowedOrigins',
  DIOSC_DATA_DIR: 'dataDir',
  DATABASE_URL: 'databaseUrl',
  DIOSC_OWNER_EMAIL: 'ownerEmail',
  DIOSC_OWNER_PASSWORD: 'ownerPassword',
  DIOSC_LOG_LEVEL: 'logLevel',
  DIOSC_PORTAL_DIR: 'portalDir',
  DIOSC_KIT_DIR: 'kitDir',
  DIOSC_SECRET_KEY: 'secretKey',
  DIOSC_ASSISTANTS: 'assistantsFile',
};

export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): ServerConfig {
  const file: FileConfig = env.DIOSC_CONFIG
    ? (JSON.parse(readFileSync(resolve(cwd, env.DIOSC_CONFIG), 'utf8')) as FileConfig)
    : {};
  const merged: FileConfig = { ...file };
  for (const [name, key] of Object.entries(ENV)) {
    const value = env[name];
    if (value !== undefined && value !== '') merged[key] = value;
  }
  const host = String(merged.host ?? '127.0.0.1');
  const port = Number(merged.port ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new Error(`Invalid port: ${String(merged.port)}`);
  const origins = merged.mcpAllowedOrigins;
  return {
    host,
    port,
    publicOrigin: String(merged.publicOrigin ?? `http://localhost:${port}`).replace(/\/$/, ''),
    mcpAllowedOrigins: Array.isArray(origins)
      ? origins.map(String)
      : String(origins ?? '')
          .split(',')
          .map((origin) => origin.trim())
          .filter(Boolean),
    dataDir: resolve(cwd, String(merged.dataDir ?? '.data')),
    databaseUrl: merged.databaseUrl === undefined ? undefined : String(merged.databaseUrl),
    ownerEmail: String(merged.ownerEmail ?? 'owner@localhost'),
    ownerPassword: merged.ownerPassword === undefined ? undefined : String(merged.ownerPassword),
    logLevel: String(merged.logLevel ?? 'info'),
    portalDir: merged.portalDir === undefined ? undefined : resolve(cwd, String(merged.portalDir)),
    kitDir: merged.kitDir === undefined ? undefined : resolve(cwd, String(merged.kitDir)),
    secretKey: merged.secretKey === undefined ? undefined : String(merged.secretKey),
    assistantsFile:
      merged.assistantsFile === undefined ? undefined : resolve(cwd, String(merged.assistantsFile)),
  };
}
