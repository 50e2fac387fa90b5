// @vitest-environment happy-dom
import type { InterruptAnswer } from '@diosc/protocol';
import { describe, expect, it } from 'vitest';
import { createFakeHub } from '../src/testing/index.js';
import { abandon, eventually, startKit } from './support/harness.js';

const adapter = (calls: unknown[], handler?: () => Promise<unknown>) => ({
  read: () => ({ url: location.href, title: 'Editor' }),
  intents: [
    {
      name: 'publish',
      description: 'Publish the post.',
      schema: { type: 'object', properties: { slug: { type: 'string' } } },
      approval: { severity: 'medium' as const, summary: (args: { slug?: string }) => `Publish ${args.slug}` },
      handler: async (args: unknown) => {
        calls.push(args);
        return ((await handler?.()) ?? { success: true, data: 'published' }) as { success: boolean };
      },
    },
  ],
});

describe('reload survival, at most once', () => {
  it('an approval open at a reload opens again on the next page, recomputed from the current adapter', async () => {
    const answers: InterruptAnswer[] = [];
    const hub = createFakeHub({
      script: async (turn) =>
        void answers.push(await turn.callIntent('publish', { slug: 'hello' }, 'medium')),
    });
    const calls: unknown[] = [];
    const first = startKit({ hub });
    first.diosc('browserAdapter', adapter(calls));
    await first.diosc('send', 'publish it');
    await eventually(() => expect(first.kit.consensus.shown.get()?.summary).toBe('Publish hello'));
    abandon(first);

    const second = startKit({ hub });
    second.diosc('browserAdapter', adapter(calls));
    const shown = await eventually(
      () => second.kit.consensus.shown.get() ?? Promise.reject(new Error('not reopened')),
    );
    expect(shown.summary).toBe('Publish hello');
    second.kit.consensus.decide(shown.id, { outcome: 'approve' });
    await hub.idle();
    expect(calls).toEqual([{ slug: 'hello' }]);
    expect(answers).toEqual([
      { result: { success: true, data: 'published' }, decision: { decision: 'approve' } },
    ]);
  });

  it('fails fast on the next page when the intent is gone', async () => {
    const answers: InterruptAnswer[] = [];
    const hub = createFakeHub({
      script: async (turn) => void answers.push(await turn.callIntent('publish', { slug: 'x' }, 'medium')),
    });
    const first = startKit({ hub });
    first.diosc('browserAdapter', adapter([]));
    await first.diosc('send', 'publish it');
    await eventually(() => expect(first.kit.consensus.shown.get()).not.toBeNull());
    abandon(first);
    const second = startKit({ hub });
    second.diosc('browserAdapter', { read: () => ({ url: 'u', title: 'Other view' }), intents: [] });
    await hub.idle();
    expect(answers).toEqual([{ error: 'intent "publish" no longer available — page changed' }]);
    expect(second.kit.consensus.pending.get()).toEqual([]);
  });

  it('a handler that was running when the page died is never run again: the answer is uncertain', async () => {
    const answers: InterruptAnswer[] = [];
    const hub = createFakeHub({
      script: async (turn) => void answers.push(await turn.callTool('export_report', { month: 5 })),
    });
    const runs: unknown[] = [];
    const first = startKit({ hub });
    first.diosc('tool', 'export_report', (params) => {
      runs.push(params);
      return new Promise(() => {});
    });
    await first.diosc('send', 'export');
    await eventually(() => expect(runs).toHaveLength(1));
    abandon(first);

    const second = startKit({ hub });
    second.diosc('tool', 'export_report', (params) => {
      runs.push(params);
      return { exported: true };
    });
    await hub.idle();
    expect(runs).toEqual([{ month: 5 }]);
    expect(answers).toEqual([
      {
        error:
          'The page was reloaded or closed while "export_report" was running, so whether it finished is unknown; it was not run again.',
        uncertain: true,
      },
    ]);
  });

  it('an approved intent whose handler was running is not run again after a reload', async () => {
    const answers: InterruptAnswer[] = [];
    const hub = createFakeHub({
      script: async (turn) => void answers.push(await turn.callIntent('publish', { slug: 'y' }, 'medium')),
    });
    const calls: unknown[] = [];
    const first = startKit({ hub });
    first.diosc(
      'browserAdapter',
      adapter(calls, () => new Promise(() => {})),
    );
    await first.diosc('send', 'publish');
    const shown = await eventually(
      () => first.kit.consensus.shown.get() ?? Promise.reject(new Error('no dialog')),
    );
    first.kit.consensus.decide(shown.id, { outcome: 'approve' });
    await eventually(() => expect(calls).toHaveLength(1));
    abandon(first);
    const second = startKit({ hub });
    second.diosc('browserAdapter', adapter(calls));
    await hub.idle();
    expect(calls).toHaveLength(1);
    expect(second.kit.consensus.pending.get()).toEqual([]);
    expect(answers).toEqual([{ error: expect.stringContaining('was not run again'), uncertain: true }]);
  });

  it('the conversation, its messages and chips come back after a reload', async () => {
    const hub = createFakeHub();
    const first = startKit({ hub });
    await first.diosc('send', 'remember me');
    await hub.idle();
    abandon(first);
    const second = startKit({ hub });
    await eventually(() =>
      expect(second.kit.state.get().messages.map((message) => message.text)).toEqual([
        'remember me',
        'You said: remember me',
      ]),
    );
    expect(hub.conversations.size).toBe(1);
  });
});
