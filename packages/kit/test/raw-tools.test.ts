// @vitest-environment happy-dom
import type { InterruptAnswer } from '@diosc/protocol';
import { describe, expect, it } from 'vitest';
import { startKit } from './support/harness.js';

/** Runs one raw tool through a fake-hub turn and returns the page's answer. */
async function answerOf(
  handler: (params: Record<string, unknown>) => unknown,
  params: Record<string, unknown> = { id: '42' },
) {
  const answers: InterruptAnswer[] = [];
  const harness = startKit({
    script: async (turn) => {
      answers.push(await turn.callTool('highlight_row', params));
    },
  });
  harness.diosc('tool', 'highlight_row', handler);
  await harness.diosc('send', 'go');
  await harness.hub.idle();
  return { answer: answers[0], ...harness };
}

describe('raw browser tools: the result contract', () => {
  it('a sync return is the result', async () => {
    const { answer } = await answerOf((params) => ({ highlighted: params.id }));
    expect(answer).toEqual({ result: { highlighted: '42' } });
  });

  it('an async return is the result; undefined becomes null', async () => {
    expect((await answerOf(async () => [1, 'two', { three: true }])).answer).toEqual({
      result: [1, 'two', { three: true }],
    });
    expect((await answerOf(() => undefined)).answer).toEqual({ result: null });
  });

  it('{ error } and a throw are the error result, with the message', async () => {
    expect((await answerOf((params) => ({ error: `Row ${params.id} not found` }))).answer).toEqual({
      error: 'Row 42 not found',
    });
    expect(
      (
        await answerOf(async () => {
          throw new Error('The table is locked');
        })
      ).answer,
    ).toEqual({ error: 'The table is locked' });
  });

  it.each([
    ['a DOM node', () => ({ row: document.createElement('tr') }), 'a DOM node at the result.row'],
    [
      'a cycle',
      () => {
        const value: Record<string, unknown> = { ok: 1 };
        value.again = value;
        return value;
      },
      'a cycle at the result.again',
    ],
    ['a function', () => ({ later: () => 1 }), 'a function at the result.later'],
    ['a class instance', () => ({ when: new Map() }), 'a Map at the result.when'],
  ])('%s is a clear error, not a crash', async (_kind, handler, reason) => {
    const { answer, errors } = await answerOf(handler);
    const message = `browser tool "highlight_row" returned ${reason}, which is not JSON; return plain data`;
    expect(answer).toEqual({ error: message });
    expect(errors).toContainEqual(`[diosc] ${message}`);
  });

  it('an unregistered tool answers an error without running anything', async () => {
    const answers: InterruptAnswer[] = [];
    const { diosc, hub } = startKit({
      script: async (turn) => void answers.push(await turn.callTool('missing_tool', {})),
    });
    await diosc('send', 'go');
    await hub.idle();
    expect(answers).toEqual([{ error: 'browser tool "missing_tool" is not registered on this page' }]);
  });

  it('a result over 64 KiB is refused with its size instead of being sent', async () => {
    const { answer } = await answerOf(() => ({ blob: 'x'.repeat(70_000) }));
    expect(answer).toEqual({
      error: 'The result of "highlight_row" is 70022 bytes; the hub accepts at most 65536.',
    });
  });

  it('a host handler under a built-in name overrides the built-in', async () => {
    const answers: InterruptAnswer[] = [];
    const { diosc, hub } = startKit({
      script: async (turn) => void answers.push(await turn.callTool('read_page', {})),
    });
    diosc('tool', 'read_page', () => ({ mine: true }));
    await diosc('send', 'go');
    await hub.idle();
    expect(answers).toEqual([{ result: { mine: true } }]);
  });
});
