// @vitest-environment happy-dom

import { FakeModelContext } from '@diosc/webmcp/testing';
import { describe, expect, it } from 'vitest';
import { runBrowserCall } from '../src/browser-calls/run-browser-call.js';
import { startWebMcpBridge } from '../src/webmcp/webmcp-bridge.js';
import { eventually, startKit } from './support/harness.js';

const DECLARED = {
  name: 'highlight_row',
  description: 'Highlight a row.',
  inputSchema: { type: 'object', properties: { id: { type: 'string' } } },
};

describe('the WebMCP bridge (fake ModelContext; the native run is e2e/kit/webmcp.test.ts)', () => {
  it('registers declared raw tools and intents, follows registry changes, and gates approvals through the dialog', async () => {
    const { diosc, kit } = startKit({ assistant: { browserTools: [DECLARED] } });
    const context = new FakeModelContext();
    const runs: unknown[] = [];
    diosc('tool', 'highlight_row', (params) => ({ highlighted: params.id }));
    diosc('tool', 'undeclared', () => 1);
    diosc('browserAdapter', {
      intents: [
        {
          name: 'publish',
          description: 'Publish.',
          schema: { type: 'object' },
          approval: { severity: 'high' },
          handler: (args: unknown) => {
            runs.push(args);
            return { success: true };
          },
        },
      ],
    });
    const stop = startWebMcpBridge(
      kit,
      (call) => runBrowserCall(kit, call, { beforeRun() {}, leavingPage() {} }),
      {
        api: 'current',
        context,
      },
    );
    await eventually(() => expect([...context.tools.keys()]).toEqual(['highlight_row', 'browser_publish']));
    expect(context.tools.get('browser_publish')!.annotations).toEqual({ consequentialHint: true });
    expect(await context.invoke('highlight_row', { id: '7' })).toEqual({ highlighted: '7' });

    const pending = context.invoke('browser_publish', { at: 'now' });
    const shown = await eventually(() => kit.consensus.shown.get() ?? Promise.reject(new Error('no dialog')));
    expect(runs).toEqual([]);
    kit.consensus.decide(shown.id, { outcome: 'reject', reason: 'not yet' });
    expect(await pending).toEqual({ success: false, error: 'Action declined by user: not yet' });
    expect(runs).toEqual([]);

    diosc('browserAdapter', null);
    await eventually(() => expect([...context.tools.keys()]).toEqual(['highlight_row']));
    stop();
    expect(context.tools.size).toBe(0);
  });
});
