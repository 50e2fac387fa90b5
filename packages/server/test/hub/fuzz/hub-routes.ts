import fc from 'fast-check';
import { PAGE_ORIGIN } from '../support/hub-server.js';
import { badAgUiRun, waitingHistory } from './ag-ui-shapes.js';
import type { Targets } from './fuzz-fixture.js';
import {
  type Body,
  deepNesting,
  invalidUtf8,
  malformedJson,
  oversized,
  poisonedKeys,
  wrongMediaType,
} from './hostile-bodies.js';
import { hostileUploads } from './hostile-uploads.js';
import {
  badAnswer,
  badDecision,
  badMessage,
  notObject,
  unknownKey,
  VALID_REGISTRY,
  VALID_SNAPSHOT,
} from './hub-shapes.js';

/** Who sends a request: the main visitor, the next visitor of the crowd (per-visitor limits), nobody. */
export type Actor = 'main' | 'crowd';

/** One generated request, as overrides of the route's default (its method, target path, headers). */
export interface Input extends Body {
  /** The path after `/api/hub`; `{own}` is the acting visitor's idle conversation. */
  path?: string;
}

export interface RouteFuzzer {
  /** The path a valid request of the route goes to (after `/api/hub`), `{own}` as above. */
  path: string;
  actor: Actor;
  /** A write: every generated input must be refused. Reads may answer 2xx. */
  writes: boolean;
  /** For per-visitor or per-address limits: how many requests one visitor or address sends. */
  rotateEvery?: number;
  /** The source address changes with the rotation (a per-address limit), not the visitor. */
  rotateAddress?: boolean;
  classes: Record<string, fc.Arbitrary<Input>>;
}

const SESSION_BODY_LIMIT = 1024 * 1024;
const ANSWER_LIMIT = 65_536;

const printable = (max: number) => fc.stringMatching(new RegExp(`^[\\x20-\\x7e]{0,${max}}$`));
const wellFormedId = fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/);

/** Path parameters that name nothing this visitor may see, or that are not ids at all. */
function strangers(ids: string[]): fc.Arbitrary<string> {
  return fc.oneof(
    wellFormedId,
    fc
      .string({ maxLength: 60, unit: 'grapheme' })
      .filter((s) => s !== '')
      .map(encodeURIComponent),
    fc.constantFrom(...ids),
    fc.constantFrom(
      '%',
      '%zz',
      '%FF',
      '%A0',
      '%C3',
      '%E9',
      '%C0%AF',
      '%ED%A0%80',
      '%F4%90%80%80',
      '..',
      '%2e%2e',
      '%2F',
      'a%00b',
      '%20',
      '%25',
      'x%',
    ),
    fc.integer({ min: 101, max: 600 }).map((n) => 'a'.repeat(n)),
  );
}

/** A query string of anything, encoded or with raw (malformed) escapes. */
const junkQuery = fc.oneof(
  fc
    .array(fc.tuple(fc.string({ maxLength: 12 }), fc.string({ maxLength: 30 })), { maxLength: 4 })
    .map(
      (pairs) => `?${pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')}`,
    ),
  fc.constantFrom(
    '?%',
    '?a=%FF',
    '?a=%zz&b',
    '?after=-1',
    '?after=1e3',
    '?after=%00',
    '?&&==',
    `?${'a'.repeat(4000)}`,
  ),
);

/** Requests without a valid session, or with a session under another origin; the rest of the request valid. */
function credentials(token: string, body?: string): fc.Arbitrary<Input> {
  return fc
    .oneof(
      fc.constant({ authorization: undefined }),
      printable(80).map((value) => ({ authorization: value })),
      fc.stringMatching(/^[A-Za-z0-9_-]{1,120}$/).map((value) => ({ authorization: `Bearer ${value}` })),
      fc
        .constantFrom(
          'Basic dXNlcjpwYXNz',
          `bearer ${token}`,
          `Bearer  ${token}`,
          `Bearer ${token}x`,
          `Bearer ${token.slice(0, -1)}`,
        )
        .map((authorization) => ({ authorization })),
      printable(60)
        .filter((origin) => origin !== PAGE_ORIGIN)
        .map((origin) => ({ origin })),
      fc
        .constantFrom('null', `${PAGE_ORIGIN}/`, PAGE_ORIGIN.toUpperCase(), 'http://shop.localhost:4174')
        .map((origin) => ({ origin })),
    )
    .map((headers) => ({ headers, ...(body !== undefined ? { body } : {}) }));
}

/** The classes every JSON-body route gets, from one valid body of it. */
function jsonClasses(valid: unknown, limit: number, anyField?: (value: unknown) => unknown) {
  return {
    'malformed JSON': malformedJson(valid),
    'invalid UTF-8': invalidUtf8(valid),
    'deep nesting': deepNesting(valid, anyField),
    'poisoned keys': poisonedKeys(valid, anyField),
    'over the body limit': oversized(limit),
    'wrong media type': wrongMediaType(valid),
  };
}

const asBody = (arbitrary: fc.Arbitrary<unknown>): fc.Arbitrary<Input> =>
  arbitrary.map((value) => ({ body: JSON.stringify(value) }));

/** Reads: query strings and headers of anything, a body where none belongs. */
function readClasses(token: string, ids?: fc.Arbitrary<string>, toPath?: (id: string) => string) {
  return {
    'body on a bodiless method': fc.jsonValue({ maxDepth: 2 }).map((value) => ({
      body: JSON.stringify(value) ?? '1',
      headers: { 'content-type': 'application/json' },
    })),
    credentials: credentials(token),
    ...(ids && toPath ? { 'ids of nothing': ids.map((id) => ({ path: toPath(id) })) } : {}),
  };
}

/** Every hub route under fuzz, keyed `METHOD /api/hub/...` as Fastify's route tree names it. */
export function hubFuzzers(t: Targets): Record<string, RouteFuzzer> {
  const token = t.main.token;
  const otherIds = [t.other.conversation, t.other.fileId, t.other.interruptId, t.other.turnId];
  // The main visitor's ids of another kind: an interrupt is no approval request, and the reverse.
  const ids = strangers(otherIds);
  const idsBut = (own: string) =>
    strangers([...otherIds, ...[t.main.consensus.id, t.main.waiting.interruptId].filter((id) => id !== own)]);

  const sessionBody = { publishableKey: t.publishableKey };
  const sessions: RouteFuzzer = {
    path: '/sessions',
    actor: 'main',
    writes: true,
    rotateEvery: 25,
    rotateAddress: true,
    classes: {
      ...jsonClasses(sessionBody, SESSION_BODY_LIMIT),
      'schema violations': asBody(
        fc.oneof(
          notObject,
          fc.constant({}),
          fc
            .string({ maxLength: 140 })
            .filter((key) => !/^pk_[A-Za-z0-9_-]{8,128}$/.test(key))
            .map((publishableKey) => ({ publishableKey })),
          fc
            .tuple(unknownKey, fc.jsonValue({ maxDepth: 1 }))
            .map(([key, value]) => ({ ...sessionBody, [key]: value })),
          fc
            .oneof(fc.constant(''), fc.constant('i'.repeat(4_097)), fc.integer(), fc.constant(null))
            .map((identity) => ({ ...sessionBody, identity })),
        ),
      ),
      'unknown assistant': asBody(
        fc
          .stringMatching(/^pk_[A-Za-z0-9_-]{8,128}$/)
          .filter((key) => key !== t.publishableKey)
          .map((publishableKey) => ({ publishableKey })),
      ),
      'origin not allowed': fc
        .oneof(
          fc.constant(undefined),
          printable(60).filter((origin) => origin !== PAGE_ORIGIN),
          fc.constantFrom('null', `${PAGE_ORIGIN}/`, 'http://shop.localhost'),
        )
        .map((origin) => ({ body: JSON.stringify(sessionBody), headers: { origin } })),
      'forged identity': fc
        .oneof(
          printable(400).filter((s) => s !== ''),
          fc
            .tuple(
              fc.base64String({ minLength: 4, maxLength: 80 }),
              fc.base64String({ minLength: 4, maxLength: 200 }),
            )
            .map(
              ([payload, signature]) =>
                `eyJhbGciOiJIUzI1NiJ9.${payload.replaceAll('=', '')}.${signature.replaceAll('=', '')}`,
            ),
          fc.constant('eyJhbGciOiJub25lIn0.eyJzdWIiOiJhZG1pbiJ9.'),
        )
        .map((identity) => ({ body: JSON.stringify({ ...sessionBody, identity }) })),
    },
  };

  const createConversation: RouteFuzzer = {
    path: '/conversations',
    actor: 'main',
    writes: true,
    classes: {
      ...jsonClasses({}, SESSION_BODY_LIMIT),
      'not an empty object': asBody(
        fc.oneof(
          fc.dictionary(
            fc
              .string({ minLength: 1, maxLength: 10 })
              .filter((k) => !['__proto__', 'constructor'].includes(k)),
            fc.jsonValue({ maxDepth: 2 }),
            {
              minKeys: 1,
              maxKeys: 4,
            },
          ),
          fc.oneof(
            fc.integer(),
            fc.boolean(),
            fc.string({ maxLength: 20 }),
            fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }),
          ),
        ),
      ),
      credentials: credentials(token, '{}'),
    },
  };

  const conversationPath = (id: string) => `/conversations/${id}`;
  const listConversations: RouteFuzzer = {
    path: '/conversations',
    actor: 'main',
    writes: false,
    classes: {
      ...readClasses(token),
      'junk query': junkQuery.map((query) => ({ path: `/conversations${query}` })),
    },
  };
  const readAssistant: RouteFuzzer = {
    path: '/assistant',
    actor: 'main',
    writes: false,
    classes: {
      ...readClasses(token),
      'junk query': junkQuery.map((query) => ({ path: `/assistant${query}` })),
    },
  };
  const readConversation: RouteFuzzer = {
    path: conversationPath(t.main.waiting.conversation),
    actor: 'main',
    writes: false,
    classes: {
      ...readClasses(token, ids, conversationPath),
      'junk query': junkQuery.map((query) => ({
        path: `${conversationPath(t.main.waiting.conversation)}${query}`,
      })),
    },
  };

  const messageBody = { text: 'hi', snapshot: VALID_SNAPSHOT, registry: VALID_REGISTRY };
  const messages: RouteFuzzer = {
    path: '/conversations/{own}/messages',
    actor: 'crowd',
    writes: true,
    rotateEvery: 300,
    classes: {
      ...jsonClasses(messageBody, SESSION_BODY_LIMIT, (data) => ({
        ...messageBody,
        snapshot: { ...VALID_SNAPSHOT, data },
      })),
      'schema violations and poisoned page state': asBody(badMessage),
      'ids of nothing': ids.map((id) => ({
        path: `/conversations/${id}/messages`,
        body: JSON.stringify({ text: 'hi' }),
      })),
      credentials: credentials(token, JSON.stringify({ text: 'hi' })),
    },
  };

  const eventsPath = (id: string) => `/conversations/${id}/events`;
  const events: RouteFuzzer = {
    path: eventsPath(t.main.waiting.conversation),
    actor: 'main',
    writes: false,
    classes: {
      ...readClasses(token, ids, eventsPath),
      'junk query': junkQuery.map((query) => ({
        path: `${eventsPath(t.main.waiting.conversation)}${query}`,
      })),
      'junk Last-Event-ID': fc
        .oneof(printable(40), fc.constantFrom('-1', '1.5', '1e3', '0x10', '9999999999999', ' 1', '1 ', ''))
        .map((value) => ({ headers: { 'last-event-id': value } })),
    },
  };

  const uploads: RouteFuzzer = {
    path: '/conversations/{own}/files',
    actor: 'crowd',
    writes: true,
    rotateEvery: 25,
    classes: hostileUploads({
      interruptIds: [t.main.waiting.interruptId, t.other.interruptId, t.main.consensus.id],
      ids,
      token,
    }),
  };

  const decisionPath = `/consensus/${t.main.consensus.id}/decision`;
  const rejectBody = JSON.stringify({ decision: 'reject', argsDigest: t.main.consensus.argsDigest });
  const decisions: RouteFuzzer = {
    path: decisionPath,
    actor: 'main',
    writes: true,
    classes: {
      ...jsonClasses(
        { decision: 'approve', argsDigest: t.main.consensus.argsDigest },
        SESSION_BODY_LIMIT,
        (args) => ({
          decision: 'edit',
          argsDigest: t.main.consensus.argsDigest,
          args: { nested: args },
        }),
      ),
      'schema violations and wrong digests': asBody(badDecision(t.main.consensus.argsDigest)),
      'ids of nothing': idsBut(t.main.consensus.id).map((id) => ({
        path: `/consensus/${id}/decision`,
        body: rejectBody,
      })),
      credentials: credentials(token, rejectBody),
    },
  };

  const answerPath = `/interrupts/${t.main.waiting.interruptId}/answer`;
  const answerBody = JSON.stringify({ result: { ok: true } });
  const answers: RouteFuzzer = {
    path: answerPath,
    actor: 'main',
    writes: true,
    classes: {
      ...jsonClasses({ result: { ok: true } }, ANSWER_LIMIT, (result) => ({ result })),
      'schema violations and poisoned page state': asBody(badAnswer),
      'ids of nothing': idsBut(t.main.waiting.interruptId).map((id) => ({
        path: `/interrupts/${id}/answer`,
        body: answerBody,
      })),
      credentials: credentials(token, answerBody),
    },
  };

  const cancelPath = `/turns/${t.main.waiting.turnId}/cancel`;
  const cancel: RouteFuzzer = {
    path: cancelPath,
    actor: 'main',
    writes: true,
    classes: {
      ...jsonClasses({}, SESSION_BODY_LIMIT),
      'not an empty body': createConversation.classes['not an empty object']!,
      'ids of nothing': fc
        .oneof(ids, fc.constant(t.main.doneTurnId))
        .map((id) => ({ path: `/turns/${id}/cancel`, body: '{}' })),
      credentials: credentials(token, '{}'),
    },
  };

  const filePath = (id: string) => `/files/${id}`;
  const download: RouteFuzzer = {
    path: filePath(t.main.fileId),
    actor: 'main',
    writes: false,
    classes: {
      ...readClasses(token, ids, filePath),
      'junk query': junkQuery.map((query) => ({ path: `${filePath(t.main.fileId)}${query}` })),
      'junk Range': fc
        .oneof(
          printable(60),
          fc
            .tuple(fc.integer({ min: -5, max: 200 }), fc.integer({ min: -5, max: 200 }))
            .map(([a, b]) => `bytes=${a}-${b}`),
          fc.constantFrom(
            'bytes=-0',
            'bytes=0-',
            'bytes=-',
            'bytes=99999999999999999999-',
            'bytes=0-1,2-3',
            'items=0-1',
            'bytes=70-',
          ),
        )
        .map((range) => ({ headers: { range } })),
    },
  };

  // The waiting conversation's thread with a history that is not its own: refused as it stands.
  const runBase = {
    threadId: t.main.waiting.conversation,
    runId: 'run-fuzz',
    messages: [{ id: 'm', role: 'user', content: 'hi' }],
  };
  const ownHistory = { ...runBase, messages: waitingHistory(t.main.waiting.interruptId) };
  const resumeOf = (interruptId: string, payload: unknown) => ({
    ...ownHistory,
    resume: [{ interruptId, status: 'resolved', payload }],
  });
  const agUi: RouteFuzzer = {
    path: '/ag-ui',
    actor: 'main',
    writes: true,
    classes: {
      ...jsonClasses(runBase, SESSION_BODY_LIMIT, (payload) => resumeOf('tc_fuzz', payload)),
      'schema violations and roles the hub does not take': asBody(badAgUiRun(runBase)),
      'histories the hub never had': asBody(
        fc
          .array(
            fc.record({
              id: fc.string({ minLength: 1, maxLength: 8 }),
              role: fc.constantFrom('user', 'tool'),
              content: fc.string({ maxLength: 40 }),
              toolCallId: fc.constant(t.main.waiting.interruptId),
            }),
            { minLength: 1, maxLength: 4 },
          )
          .map((extra) => ({
            ...ownHistory,
            messages: [
              ...ownHistory.messages,
              ...extra.map(({ toolCallId, ...rest }) =>
                rest.role === 'tool' ? { ...rest, toolCallId } : rest,
              ),
            ],
          }))
          .filter((body) => body.messages.length > 3 || body.messages.at(-1)?.role === 'tool'),
      ),
      'hostile resumes': asBody(
        fc.oneof(
          badAnswer.map((payload) => resumeOf(t.main.waiting.interruptId, payload)),
          ids.map((id) => resumeOf(id, { result: 1 })),
          fc.constant(
            resumeOf(t.main.consensus.id, { decision: 'approve', argsDigest: t.main.consensus.argsDigest }),
          ),
        ),
      ),
      'threads of nothing': asBody(ids.map((threadId) => ({ ...runBase, threadId }))),
      credentials: credentials(token, JSON.stringify(runBase)),
    },
  };

  const head = (get: RouteFuzzer): RouteFuzzer => ({ ...get });
  return {
    'POST /api/hub/sessions': sessions,
    'POST /api/hub/conversations': createConversation,
    'GET /api/hub/assistant': readAssistant,
    'HEAD /api/hub/assistant': head(readAssistant),
    'GET /api/hub/conversations': listConversations,
    'HEAD /api/hub/conversations': head(listConversations),
    'GET /api/hub/conversations/:id': readConversation,
    'HEAD /api/hub/conversations/:id': head(readConversation),
    'POST /api/hub/conversations/:id/messages': messages,
    'GET /api/hub/conversations/:id/events': events,
    'HEAD /api/hub/conversations/:id/events': head(events),
    'POST /api/hub/conversations/:id/files': uploads,
    'POST /api/hub/consensus/:id/decision': decisions,
    'POST /api/hub/interrupts/:id/answer': answers,
    'POST /api/hub/turns/:id/cancel': cancel,
    'GET /api/hub/files/:id': download,
    'HEAD /api/hub/files/:id': head(download),
    'POST /api/hub/ag-ui': agUi,
  };
}
