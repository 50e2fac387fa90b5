import type { HubOptions, Script } from '@diosc/server/testing';
import { type HubTestServer, startHubServer } from '../../hub/support/hub-server.js';
import { type Call, callJson, type OwnerSession, signIn } from '../owner-client.js';

export interface Answer<T> {
  status: number;
  body: T;
  headers: Headers;
}

/** A hub server with the owner signed in, and every response body the tests saw (for secret scans). */
export interface AdminHarness {
  server: HubTestServer;
  owner: OwnerSession;
  seen: string[];
  api<T = Record<string, unknown>>(path: string, options?: Call): Promise<Answer<T>>;
  as<T = Record<string, unknown>>(
    session: OwnerSession | null,
    path: string,
    options?: Call,
  ): Promise<Answer<T>>;
  /** The assistants table as stored, for "nothing changed" checks. */
  snapshot(): Promise<string>;
}

export async function startAdmin(
  options: {
    script?: Script;
    hub?: HubOptions;
    logger?: NonNullable<Parameters<typeof startHubServer>[0]>['logger'];
  } = {},
): Promise<AdminHarness> {
  const server = await startHubServer({ script: options.script, hub: options.hub, logger: options.logger });
  const owner = await signIn(server.url);
  const seen: string[] = [];
  const as = async <T>(session: OwnerSession | null, path: string, call: Call = {}) => {
    const answer = await callJson<T>(server.url, `/assistants${path}`, session, call);
    seen.push(JSON.stringify(answer.body ?? null));
    return answer;
  };
  return {
    server,
    owner,
    seen,
    api: (path, call) => as(owner, path, call),
    as,
    async snapshot() {
      const tables = await Promise.all([
        server.store.db.selectFrom('hub_assistants').selectAll().orderBy('id').execute(),
        server.store.db.selectFrom('app_connections').selectAll().orderBy('id').execute(),
        server.store.db.selectFrom('hub_conversations').selectAll().orderBy('id').execute(),
        server.store.db.selectFrom('hub_files').select(['id', 'status']).orderBy('id').execute(),
      ]);
      return JSON.stringify(tables);
    },
  };
}

export function codeOf(body: unknown): string | undefined {
  return (body as { error?: { code?: string } } | undefined)?.error?.code;
}
