import { describe, expect, it } from 'vitest';
import type { ToolCallRecord } from '../../src/hub/store/tool-calls.js';
import { consensusRequestOf, consensusSummary } from '../../src/hub/tool-calls/consensus-request.js';
import { interruptOf } from '../../src/hub/tool-calls/interrupt-view.js';

function call(overrides: Partial<ToolCallRecord>): ToolCallRecord {
  return {
    id: 'tc_1',
    turnId: 'trn_1',
    step: 1,
    position: 0,
    modelCallId: 'm1',
    tool: 'read_page',
    kind: 'tool',
    args: {},
    status: 'interrupt',
    severity: null,
    argsDigest: 'd1',
    schema: null,
    answer: null,
    answerDigest: null,
    output: null,
    expiresAt: 1_700_000_000_000,
    ...overrides,
  } as ToolCallRecord;
}

/**
 * What a person approving sees is written by the hub from the exact arguments, bounded; what a page
 * is asked to run is named as the page registered it. Both are built from the stored call only.
 */
describe('the views of a stored call', () => {
  it('summarises an approval from the tool and its arguments: four at most, each value cut at 60 characters', () => {
    expect(consensusSummary('send_invite', {})).toBe('Run send_invite');
    expect(consensusSummary('send_invite', { email: 'a@b.c', count: 2, tags: ['x'] })).toBe(
      'Run send_invite with email = a@b.c, count = 2, tags = ["x"]',
    );
    const sixty = 'x'.repeat(60);
    expect(consensusSummary('t', { v: sixty })).toBe(`Run t with v = ${sixty}`);
    expect(consensusSummary('t', { v: `${sixty}y` })).toBe(`Run t with v = ${'x'.repeat(59)}…`);
    expect(consensusSummary('t', { v: { long: 'z'.repeat(80) } })).toBe(
      `Run t with v = {"long":"${'z'.repeat(50)}…`,
    );
    expect(consensusSummary('t', { a: 1, b: 2, c: 3, d: 4 })).toBe('Run t with a = 1, b = 2, c = 3, d = 4');
    expect(consensusSummary('t', { a: 1, b: 2, c: 3, d: 4, e: 5 })).toBe(
      'Run t with a = 1, b = 2, c = 3, d = 4, …',
    );
  });

  it('asks for an approval with the stored schema, or an object schema when the call has none', () => {
    const args = { email: 'a@b.c' };
    const schema = { type: 'object', properties: { email: { type: 'string' } } };
    expect(
      consensusRequestOf(call({ kind: 'intent', tool: 'send', args, severity: 'high', schema })),
    ).toEqual({
      id: 'tc_1',
      turnId: 'trn_1',
      tool: 'send',
      severity: 'high',
      summary: 'Run send with email = a@b.c',
      args,
      argsDigest: 'd1',
      schema,
    });
    expect(consensusRequestOf(call({}))).toMatchObject({ severity: 'medium', schema: { type: 'object' } });
  });

  it('names an intent without its browser_ prefix, a raw tool as it is, with its kind, severity and expiry', () => {
    expect(
      interruptOf(call({ kind: 'intent', tool: 'browser_add_to_cart', severity: 'low' }), 'cnv_1'),
    ).toEqual({
      id: 'tc_1',
      turnId: 'trn_1',
      conversationId: 'cnv_1',
      name: 'browser:browser_add_to_cart',
      tool: 'add_to_cart',
      kind: 'intent',
      args: {},
      severity: 'low',
      expiresAt: new Date(1_700_000_000_000).toISOString(),
    });
    // Only a leading prefix is the hub's: one inside the page's own name stays.
    expect(interruptOf(call({ kind: 'intent', tool: 'browser_open_browser_tab' }), 'cnv_1').tool).toBe(
      'open_browser_tab',
    );
    expect(interruptOf(call({ kind: 'intent', tool: 'open_browser_tab' }), 'cnv_1').tool).toBe(
      'open_browser_tab',
    );
    const raw = interruptOf(call({ tool: 'browser_like_name' }), 'cnv_1');
    expect(raw).toMatchObject({ name: 'browser:browser_like_name', tool: 'browser_like_name', kind: 'tool' });
    expect(raw).not.toHaveProperty('severity');
    expect(interruptOf(call({ expiresAt: null }), 'cnv_1').expiresAt).toBe(new Date(0).toISOString());
  });
});
