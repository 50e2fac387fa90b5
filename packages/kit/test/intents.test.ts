// @vitest-environment happy-dom
import type { InterruptAnswer } from '@diosc/protocol';
import { describe, expect, it } from 'vitest';
import type { IntentDefinition } from '../src/types.js';
import { eventually, startKit } from './support/harness.js';

const MARKERS = { summary: 'SUMMARY-MARKER-7f3', diff: 'DIFF-MARKER-2c9', handler: 'HANDLER-SOURCE-91b' };
const schema = {
  type: 'object',
  properties: { title: { type: 'string', minLength: 1 }, count: { type: 'integer', minimum: 0 } },
  required: ['title'],
  additionalProperties: false,
};

function setup(answers: InterruptAnswer[]) {
  const calls: Record<string, unknown>[] = [];
  const intent: IntentDefinition<{ title: string; count?: number }> = {
    name: 'rename',
    description: 'Rename the document.',
    schema,
    approval: {
      severity: 'high',
      summary: (args) => `${MARKERS.summary} ${args.title}`,
      diff: (args) => [{ field: 'title', current: MARKERS.diff, next: args.title }],
    },
    handler: (args) => {
      const marker = MARKERS.handler;
      calls.push({ ...args });
      return { success: true, data: { renamed: args.title, length: marker.length } };
    },
  };
  const harness = startKit({
    script: async (turn) => {
      answers.push(await turn.callIntent('rename', { title: 'Q3 plan', count: 2 }, 'high'));
      turn.say('ok');
    },
  });
  harness.diosc('browserAdapter', {
    read: () => ({
      url: 'https://shop.test/doc',
      title: 'Doc',
      description: 'The open document',
      content: 'Body',
      data: { nodes: 3 },
    }),
    intents: [intent],
  });
  return { ...harness, calls };
}

describe('intents and the snapshot', () => {
  it('sends the snapshot and only metadata: never the handler, summary or diff', async () => {
    const answers: InterruptAnswer[] = [];
    const { diosc, kit, hub, calls } = setup(answers);
    await diosc('send', 'rename it');
    const sent = hub.requests.find((r) => r.path.endsWith('/messages'))!.body as Record<string, unknown>;
    expect(sent.snapshot).toEqual({
      url: 'https://shop.test/doc',
      title: 'Doc',
      description: 'The open document',
      content: 'Body',
      data: { nodes: 3 },
    });
    expect(sent.registry).toEqual({
      tools: ['navigate', 'read_page'],
      intents: [
        { name: 'rename', description: 'Rename the document.', schema, approval: { severity: 'high' } },
      ],
    });
    const shown = await eventually(
      () => kit.consensus.shown.get() ?? Promise.reject(new Error('no dialog yet')),
    );
    expect(shown).toMatchObject({ tool: 'rename', severity: 'high', summary: `${MARKERS.summary} Q3 plan` });
    expect(calls).toEqual([]);
    kit.consensus.decide(shown.id, { outcome: 'approve' });
    await hub.idle();
    expect(calls).toEqual([{ title: 'Q3 plan', count: 2 }]);
    expect(answers).toEqual([
      {
        result: { success: true, data: { renamed: 'Q3 plan', length: 18 } },
        decision: { decision: 'approve' },
      },
    ]);
    const wire = JSON.stringify(hub.requests.map((request) => request.body));
    for (const marker of Object.values(MARKERS)) expect(wire).not.toContain(marker);
    expect(wire).not.toContain('calls.push');
  });

  it('Edit runs the handler with the edited values and reports which changed', async () => {
    const answers: InterruptAnswer[] = [];
    const { diosc, kit, hub, calls } = setup(answers);
    await diosc('send', 'rename it');
    const shown = await eventually(
      () => kit.consensus.shown.get() ?? Promise.reject(new Error('no dialog yet')),
    );
    kit.consensus.decide(shown.id, {
      outcome: 'edit',
      args: { title: 'Q4 plan', count: 2 },
      changed: ['title'],
    });
    await hub.idle();
    expect(calls).toEqual([{ title: 'Q4 plan', count: 2 }]);
    expect(answers[0]).toEqual({
      result: { success: true, data: { renamed: 'Q4 plan', length: 18 } },
      decision: { decision: 'edit', changed: ['title'] },
    });
  });

  it('Reject never runs the handler: "Action declined by user", with the reason appended', async () => {
    const answers: InterruptAnswer[] = [];
    const { diosc, kit, hub, calls } = setup(answers);
    await diosc('send', 'rename it');
    const shown = await eventually(
      () => kit.consensus.shown.get() ?? Promise.reject(new Error('no dialog yet')),
    );
    kit.consensus.decide(shown.id, { outcome: 'reject', reason: 'wrong quarter' });
    await hub.idle();
    expect(calls).toEqual([]);
    expect(answers).toEqual([
      {
        result: { success: false, error: 'Action declined by user: wrong quarter' },
        decision: { decision: 'reject', reason: 'wrong quarter' },
      },
    ]);
  });

  it('a vanished intent fails fast with the exact message and runs nothing', async () => {
    const answers: InterruptAnswer[] = [];
    const { diosc, hub, calls } = setup(answers);
    // The page changed between the model deciding and the interrupt arriving.
    const send = diosc('send', 'rename it');
    diosc('browserAdapter', {
      read: () => ({ url: 'https://shop.test/other', title: 'Other' }),
      intents: [],
    });
    await send;
    await hub.idle();
    expect(calls).toEqual([]);
    expect(answers).toEqual([{ error: 'intent "rename" no longer available — page changed' }]);
  });

  it('an intent that vanishes while its approval is open runs nothing either', async () => {
    const answers: InterruptAnswer[] = [];
    const { diosc, kit, hub, calls } = setup(answers);
    await diosc('send', 'rename it');
    const shown = await eventually(
      () => kit.consensus.shown.get() ?? Promise.reject(new Error('no dialog yet')),
    );
    diosc('browserAdapter', null);
    kit.consensus.decide(shown.id, { outcome: 'approve' });
    await hub.idle();
    expect(calls).toEqual([]);
    expect(answers).toEqual([
      { error: 'intent "rename" no longer available — page changed', decision: { decision: 'approve' } },
    ]);
  });

  it('null clears the adapter: no snapshot, no intents', async () => {
    const { diosc, hub } = startKit();
    diosc('browserAdapter', { read: () => ({ url: 'u', title: 't' }), intents: [] });
    diosc('browserAdapter', null);
    await diosc('send', 'hi');
    const sent = hub.requests.find((r) => r.path.endsWith('/messages'))!.body as Record<string, unknown>;
    expect(sent).toEqual({ text: 'hi', registry: { tools: ['navigate', 'read_page'], intents: [] } });
  });

  it('bounds the snapshot: long content is cut, non-JSON data is left out with a console error', async () => {
    const { diosc, hub, errors } = startKit();
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    diosc('browserAdapter', {
      read: async () => ({ url: 'https://x.test/', title: 'X', content: 'a'.repeat(30_000), data: cyclic }),
    });
    await diosc('send', 'hi');
    const sent = hub.requests.find((r) => r.path.endsWith('/messages'))!.body as {
      snapshot: Record<string, unknown>;
    };
    expect(sent.snapshot).toEqual({ url: 'https://x.test/', title: 'X', content: 'a'.repeat(20_000) });
    expect(errors).toContainEqual(
      expect.stringContaining('snapshot data left out (a cycle at the result.self)'),
    );
  });
});
