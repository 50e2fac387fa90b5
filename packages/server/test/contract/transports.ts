import type { TestServer } from '@diosc/server/testing';
import type { Client } from '@modelcontextprotocol/client';
import { expect } from 'vitest';
import type { GrantEntry } from '../../src/connections/grant.js';
import { browserClient } from '../browser-access/browser-client.js';
import { connectClient, createConnection, parseResult } from '../mcp/support.js';
import { callJson, type OwnerSession, signIn } from '../owner/owner-client.js';

/** What a call answered, the same way on every transport: the result, or the refusal's code. */
export type Outcome = { ok: unknown } | { code: string };

export const codeOf = (outcome: Outcome) => ('code' in outcome ? outcome.code : 'ok');

/**
 * The three ways into the account core, each over real HTTP: the owner API (the portal's own
 * calls, full authority), `/mcp` through the official client (a connection with `grant`), and
 * browser tools (this session enabled with the same selection; reads through dispatch).
 */
export async function openTransports(server: TestServer, grant: GrantEntry[]) {
  const session: OwnerSession = await signIn(server.url);
  const browser = browserClient(server.url, session);
  expect((await browser.enable(grant)).status).toBe(200);
  const connection = await createConnection(server, grant);
  const client: Client = await connectClient(server, connection.token);

  const fromHttp = (response: { status: number; body: Record<string, unknown> }): Outcome =>
    response.status === 200
      ? { ok: response.body.result }
      : { code: String((response.body.error as { code: string }).code) };

  return {
    session,
    /** The browser-access endpoints themselves (enable, prepare, acknowledge, execute…). */
    access: browser,
    client,
    connection,
    async owner(tool: string, input: unknown): Promise<Outcome> {
      return fromHttp(await callJson(server.url, `/operations/${tool}`, session, { body: input }));
    },
    async mcp(tool: string, input: Record<string, unknown>): Promise<Outcome> {
      const parsed = parseResult(await client.callTool({ name: tool, arguments: input }));
      expect(parsed.text).toEqual(parsed.structured);
      if (!parsed.isError) return { ok: parsed.structured };
      return { code: (parsed.structured as { error: { code: string } }).error.code };
    },
    async browser(tool: string, input: unknown): Promise<Outcome> {
      return fromHttp(await browser.dispatch(tool, input));
    },
    close: () => client.close(),
  };
}

export type Transports = Awaited<ReturnType<typeof openTransports>>;
export const TRANSPORTS = ['owner', 'mcp', 'browser'] as const;
