import { DioscError } from '@diosc/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ownerOf } from '../../auth/owner-request.js';
import type { AssistantRecord, SecretsPresence } from '../../hub/assistants/assistants.js';
import type { Hub } from '../../hub/hub.js';

const ASSISTANT_ID = /^ast_[A-Za-z0-9]{1,40}$/;
const CONVERSATION_ID = /^cnv_[0-9a-f-]{36}$/;

/** The hub's services; the owner routes reach the hub only through them. */
export function hubOf(app: FastifyInstance): Hub {
  if (!app.diosc.hub) throw new DioscError('not_found', 'This server runs no assistant hub.');
  return app.diosc.hub;
}

/**
 * The signed-in account's assistant named by `:id`. An id of another account's assistant answers
 * exactly like one that does not exist; a name is not accepted here, only the id.
 */
export async function ownedAssistant(
  app: FastifyInstance,
  request: FastifyRequest,
): Promise<AssistantRecord & { secrets: SecretsPresence }> {
  const { id } = request.params as { id: string };
  if (!ASSISTANT_ID.test(id)) throw new DioscError('not_found', 'There is no such assistant.');
  return hubOf(app).services.assistants.show(ownerOf(request).accountId, id);
}

/** A conversation id from the path, shape-checked before any lookup. */
export function conversationIdOf(request: FastifyRequest): string {
  const { conversationId } = request.params as { conversationId: string };
  if (!CONVERSATION_ID.test(conversationId))
    throw new DioscError('not_found', 'There is no such conversation.');
  return conversationId;
}

/** Refuses query parameters a route does not name, as bodies refuse unknown fields. */
export function queryOf(request: FastifyRequest, allowed: readonly string[]): Record<string, string> {
  const query = (request.query ?? {}) as Record<string, unknown>;
  for (const [key, value] of Object.entries(query)) {
    if (!allowed.includes(key))
      throw new DioscError('invalid_input', `Unknown query parameter "${key.slice(0, 64)}".`);
    if (typeof value !== 'string') throw new DioscError('invalid_input', `"${key}" may be given once.`);
  }
  return query as Record<string, string>;
}

export function integerParam(
  value: string | undefined,
  name: string,
  min: number,
  max: number,
  fallback: number,
) {
  if (value === undefined) return fallback;
  const number = /^[0-9]{1,9}$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isInteger(number) || number < min || number > max)
    throw new DioscError('invalid_input', `${name} must be an integer from ${min} to ${max}.`);
  return number;
}

/**
 * The budget of the routes that reach another server (a model provider, an MCP server, a sitemap
 * URL): one count per account shared by all of them, in a fixed one-minute window, so the owner API
 * cannot be turned into a request pump.
 */
export const NETWORK_CHECKS_PER_MINUTE = 20;
const WINDOW_MS = 60_000;

export type NetworkBudget = (request: FastifyRequest) => void;

export function createNetworkBudget(now: () => number): NetworkBudget {
  const windows = new Map<string, { start: number; used: number }>();
  return (request) => {
    const key = ownerOf(request).accountId;
    const time = now();
    let window = windows.get(key);
    if (!window || time - window.start >= WINDOW_MS) {
      if (windows.size > 10_000) windows.clear();
      window = { start: time, used: 0 };
      windows.set(key, window);
    }
    if (window.used >= NETWORK_CHECKS_PER_MINUTE) {
      throw new DioscError('rate_limited', 'Too many checks this minute; slow down.', {
        retryAfterMs: window.start + WINDOW_MS - time,
      });
    }
    window.used++;
  };
}
