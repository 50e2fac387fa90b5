import {
  classifyInboundRequest,
  PROTOCOL_VERSION_META_KEY,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/server';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FIRST_MODERN_REVISION, plainlyLegacy } from '../../src/mcp/era.js';

const classify = (body: unknown, protocolVersionHeader: string | undefined) =>
  classifyInboundRequest({ httpMethod: 'POST', body, protocolVersionHeader }).kind;

const call = (id: unknown, params: unknown = { name: 'items_list', arguments: { collection: 'notes' } }) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params,
});

const params = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.constant([]),
  fc.dictionary(fc.constantFrom('name', 'arguments', 'protocolVersion', 'task'), fc.jsonValue(), {
    maxKeys: 3,
  }),
  fc.record({
    name: fc.constant('items_list'),
    _meta: fc.oneof(
      fc.jsonValue(),
      fc.record({
        [PROTOCOL_VERSION_META_KEY]: fc.constantFrom(
          ...SUPPORTED_PROTOCOL_VERSIONS,
          FIRST_MODERN_REVISION,
          'nope',
          7,
        ),
      }),
    ),
  }),
);
/** Bodies near the line: mostly well-formed requests with one field varied, then anything at all. */
const body = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      jsonrpc: fc.constant('2.0'),
      id: fc.oneof(fc.string({ maxLength: 4 }), fc.integer()),
      method: fc.constantFrom('tools/call', 'tools/list', 'initialize'),
      params,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record(
      {
        jsonrpc: fc.constantFrom('2.0', '1.0', 2, null),
        id: fc.oneof(
          fc.string({ maxLength: 4 }),
          fc.integer(),
          fc.double(),
          fc.constant(null),
          fc.constant(2 ** 60),
        ),
        method: fc.oneof(fc.constantFrom('tools/call', 'notifications/cancelled'), fc.integer()),
        params,
        result: fc.jsonValue(),
        error: fc.jsonValue(),
        extra: fc.jsonValue(),
      },
      { requiredKeys: [] },
    ),
  },
);
const header = fc.oneof(
  fc.constant(undefined),
  fc.constantFrom(...SUPPORTED_PROTOCOL_VERSIONS),
  fc.constantFrom(' 2025-06-18\t', '2026-07-28 ', '2099-01-01', '2025-6-18', 'latest', ''),
  fc.string({ maxLength: 12 }),
);

describe("/mcp's era fast path", () => {
  it("never calls a request legacy that the SDK's classifier would not", () => {
    fc.assert(
      fc.property(body, header, (candidate, version) => {
        if (plainlyLegacy(candidate, version)) expect(classify(candidate, version)).toBe('legacy');
      }),
      { numRuns: 5_000 },
    );
  });

  it('takes the ordinary legacy calls of every legacy revision, and no modern one', () => {
    // The SDK's list is of the legacy era; the boundary is pinned to its classifier's own answers.
    const legacy = [...SUPPORTED_PROTOCOL_VERSIONS, '2026-07-27'];
    const modern = [FIRST_MODERN_REVISION, '2026-12-01', '2031-01-01'];
    for (const version of legacy) expect(classify(call(1), version)).toBe('legacy');
    for (const version of modern) expect(classify(call(1), version)).not.toBe('legacy');
    for (const version of [undefined, ...legacy]) {
      for (const request of [
        call(1),
        call('a'),
        call(7, undefined),
        { jsonrpc: '2.0', id: 0, method: 'tools/list' },
      ]) {
        expect(classify(request, version)).toBe('legacy');
        expect(plainlyLegacy(request, version)).toBe(true);
      }
    }
    for (const version of modern) expect(plainlyLegacy(call(1), version)).toBe(false);
    // An envelope claim is the classifier's to judge, whatever the header says.
    const claimed = call(1, {
      name: 'items_list',
      _meta: { [PROTOCOL_VERSION_META_KEY]: FIRST_MODERN_REVISION },
    });
    expect(plainlyLegacy(claimed, undefined)).toBe(false);
    expect(classify(claimed, undefined)).not.toBe('legacy');
  });

  it('leaves every malformed message to the classifier', () => {
    for (const malformed of [
      [call(1)],
      { ...call(1), result: {} },
      { ...call(1), extra: true },
      call(1.5),
      call(null),
      call(1, []),
      { jsonrpc: '2.0', method: 'notifications/cancelled' },
      'text',
    ]) {
      expect(plainlyLegacy(malformed, undefined)).toBe(false);
    }
  });
});
