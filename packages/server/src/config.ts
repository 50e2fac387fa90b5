import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { instanceIdSetting } from './audit/instance-id.js';

/** Server configuration. Read from a JSON file (DIOSC_CONFIG) and environment variables; env wins. */
export interface ServerConfig {
  host: string;
  port: number;
  /** The exact origin browsers use to reach the portal; owner mutations must carry it. */
  publicOrigin: string;
  /** Extra origins allowed to call /mcp from a browser (none by default). */
  mcpAllowedOrigins: string[];
  /**
   * Extra host names the server answers to besides its public origin's (and, when it listens on
   * loopback, the loopback names); any other `Host` is refused with `unknown_host`.
   */
  allowedHosts: string[];
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
  /**
   * The release gate of browser access — the account catalog offered to the owner's browser and
   * to in-browser agents through WebMCP (`DIOSC_BROWSER_TOOLS=on|off`, `browserAccess` in a config
   * file): on by default in development, off by default when `NODE_ENV=production` — the browser
   * adapter is provisional and waits for independent review before it ships on by default
   * (docs/security-model.md). Not an assistant's `browserTools`, the page tools it may call.
   */
  browserAccess: boolean;
  /**
   * Prometheus metrics at `/metrics` (off unless one of the two is set). A bearer token (at least
   * 32 characters) the scraper sends; with `metricsPort` too it is asked there as well.
   */
  metricsToken: string | undefined;
  /**
   * Serve `/metrics` on this port of `metricsHost` instead of the public one, where only the
   * network protects it (without `metricsToken`); the public port then has no `/metrics`.
   */
  metricsPort: number | undefined;
  /** The interface of `metricsPort` (loopback unless told). */
  metricsHost: string;
  /** OTLP/HTTP traces endpoint of a collector (e.g. http://127.0.0.1:4318/v1/traces); unset: no traces. */
  tracesOtlpUrl: string | undefined;
  /** The share of turns (and `/mcp` calls) traced, 0 to 1 (default 1: all); a turn is kept or dropped whole. */
  tracesSampleRatio: number;
  /** How many days audit records are kept before the hourly prune removes them (default 365). */
  auditRetentionDays: number;
  /** The name audit records give the instance that wrote them (default `<host name>:<process id>`). */
  instanceId: string;
}

export const DEFAULT_AUDIT_RETENTION_DAYS = 365;

/** Short enough to remember is short enough to guess: the bearer of /metrics is a generated secret. */
export const METRICS_TOKEN_MIN_LENGTH = 32;

type FileConfig = Partial<Record<keyof ServerConfig, unknown>>;

const ENV: Record<string, keyof ServerConfig> = {
  DIOSC_HOST: 'host',
  DIOSC_PORT: 'port',
  DIOSC_PUBLIC_ORIGIN: 'publicOrigin',
  DIOSC_MCP_ALLOWED_ORIGINS: 'mcpAllowedOrigins',
  DIOSC_ALLOWED_HOSTS: 'allowedHosts',
  DIOSC_DATA_DIR: 'dataDir',
  DATABASE_URL: 'databaseUrl',
  DIOSC_OWNER_EMAIL: 'ownerEmail',
  DIOSC_OWNER_PASSWORD: 'ownerPassword',
  DIOSC_LOG_LEVEL: 'logLevel',
  DIOSC_PORTAL_DIR: 'portalDir',
  DIOSC_KIT_DIR: 'kitDir',
  DIOSC_SECRET_KEY: 'secretKey',
  DIOSC_ASSISTANTS: 'assistantsFile',
  DIOSC_BROWSER_TOOLS: 'browserAccess',
  DIOSC_METRICS_TOKEN: 'metricsToken',
  DIOSC_METRICS_PORT: 'metricsPort',
  DIOSC_METRICS_HOST: 'metricsHost',
  DIOSC_TRACES_OTLP_URL: 'tracesOtlpUrl',
  DIOSC_TRACES_SAMPLE_RATIO: 'tracesSampleRatio',
  DIOSC_AUDIT_RETENTION_DAYS: 'auditRetentionDays',
  DIOSC_INSTANCE_ID: 'instanceId',
};

/** What a config file may set: every setting has its environment variable. */
const FILE_KEYS: ReadonlySet<string> = new Set(Object.values(ENV));

/** `on`/`off` (or a JSON boolean from the file); unset means on, except in production. */
function browserAccessSetting(value: unknown, env: NodeJS.ProcessEnv): boolean {
  if (value === undefined) return env.NODE_ENV !== 'production';
  if (value === true || value === 'on') return true;
  if (value === false || value === 'off') return false;
  throw new Error(`Invalid DIOSC_BROWSER_TOOLS: ${String(value)} (use on or off)`);
}

function metricsTokenSetting(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const token = String(value);
  if (token.length < METRICS_TOKEN_MIN_LENGTH || /\s/.test(token))
    throw new Error(
      `Invalid DIOSC_METRICS_TOKEN: use at least ${METRICS_TOKEN_MIN_LENGTH} characters without spaces (e.g. openssl rand -hex 32)`,
    );
  return token;
}

function metricsPortSetting(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new Error(`Invalid DIOSC_METRICS_PORT: ${String(value)}`);
  return port;
}

function tracesUrlSetting(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const url = String(value);
  if (!/^https?:\/\//.test(url) || !URL.canParse(url))
    throw new Error(`Invalid DIOSC_TRACES_OTLP_URL: ${url} (e.g. http://127.0.0.1:4318/v1/traces)`);
  return url;
}

function sampleRatioSetting(value: unknown): number {
  if (value === undefined) return 1;
  const ratio = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof ratio !== 'number' || !(ratio >= 0 && ratio <= 1))
    throw new Error(`Invalid DIOSC_TRACES_SAMPLE_RATIO: ${String(value)} (a number from 0 to 1, e.g. 0.1)`);
  return ratio;
}

function auditRetentionSetting(value: unknown): number {
  if (value === undefined) return DEFAULT_AUDIT_RETENTION_DAYS;
  const days = Number(value);
  if (!Number.isInteger(days) || days < 1 || days > 36_500)
    throw new Error(
      `Invalid DIOSC_AUDIT_RETENTION_DAYS: ${String(value)} (a whole number of days from 1 to 36500)`,
    );
  return days;
}

/** The settings given: the file's (DIOSC_CONFIG), then the environment's over them. */
function givenSettings(env: NodeJS.ProcessEnv, cwd: string): FileConfig {
  const file: FileConfig = env.DIOSC_CONFIG
    ? (JSON.parse(readFileSync(resolve(cwd, env.DIOSC_CONFIG), 'utf8')) as FileConfig)
    : {};
  // A misspelt or retired setting would otherwise be ignored without a word, the server starting
  // with the default instead: the release gate off, a port other than the one meant.
  const unknown = Object.keys(file).filter((key) => !FILE_KEYS.has(key));
  if (unknown.length > 0) {
    const renamed = unknown.includes('browserTools') ? ' (the release gate is browserAccess now)' : '';
    throw new Error(`Unknown setting in ${env.DIOSC_CONFIG}: ${unknown.join(', ')}${renamed}`);
  }
  const merged: FileConfig = { ...file };
  for (const [name, key] of Object.entries(ENV)) {
    const value = env[name];
    if (value !== undefined && value !== '') merged[key] = value;
  }
  return merged;
}

/**
 * Whether the configuration names the public origin or the port (DIOSC_PUBLIC_ORIGIN, DIOSC_PORT,
 * or the file's `publicOrigin`/`port`); when not, `publicOrigin` is the default's guess.
 */
export function configuresPublicOrigin(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): boolean {
  const given = givenSettings(env, cwd);
  return given.publicOrigin !== undefined || given.port !== undefined;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): ServerConfig {
  const merged = givenSettings(env, cwd);
  const host = String(merged.host ?? '127.0.0.1');
  const port = Number(merged.port ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new Error(`Invalid port: ${String(merged.port)}`);
  return {
    host,
    port,
    publicOrigin: String(merged.publicOrigin ?? `http://localhost:${port}`).replace(/\/$/, ''),
    mcpAllowedOrigins: list(merged.mcpAllowedOrigins),
    allowedHosts: list(merged.allowedHosts),
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
    browserAccess: browserAccessSetting(merged.browserAccess, env),
    metricsToken: metricsTokenSetting(merged.metricsToken),
    metricsPort: metricsPortSetting(merged.metricsPort),
    metricsHost: String(merged.metricsHost ?? '127.0.0.1'),
    tracesOtlpUrl: tracesUrlSetting(merged.tracesOtlpUrl),
    tracesSampleRatio: sampleRatioSetting(merged.tracesSampleRatio),
    auditRetentionDays: auditRetentionSetting(merged.auditRetentionDays),
    instanceId: instanceIdSetting(merged.instanceId),
  };
}

/** A list from a JSON array or a comma-separated environment value. */
function list(value: unknown): string[] {
  return Array.isArray(value)
    ? value.map(String)
    : String(value ?? '')
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean);
}
