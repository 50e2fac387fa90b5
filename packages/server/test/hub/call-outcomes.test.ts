import type { FileDescriptor, PageSnapshot } from '@diosc/protocol';
import { describe, expect, it, vi } from 'vitest';
import type { HubServices } from '../../src/hub/hub-services.js';
import type { ToolCallRecord } from '../../src/hub/store/tool-calls.js';
import { requireCallOfVisitor } from '../../src/hub/tool-calls/call-of-visitor.js';
import { stepResultsMessage } from '../../src/hub/tool-calls/step-results.js';
import { toolFinished } from '../../src/hub/tool-calls/tool-finished.js';
import { outcomeOf } from '../../src/hub/tool-calls/tool-output.js';
import type { VisitorSession } from '../../src/hub/visitors/visitor-sessions.js';

const ID = 'tc_0123abcd-0000-4000-8000-00000000beef';

function record(overrides: Partial<ToolCallRecord>): ToolCallRecord {
  return {
    id: ID,
    turnId: 'turn_1',
    step: 0,
    position: 0,
    modelCallId: 'call-0',
    tool: 'read_page',
    kind: 'browser',
    args: {},
    status: 'done',
    severity: null,
    argsDigest: '0'.repeat(64),
    schema: null,
    answer: null,
    answerDigest: null,
    output: { type: 'json', value: 'ok' },
    expiresAt: null,
    createdAt: 0,
    ...overrides,
  };
}

const snapshot = (title: string): PageSnapshot => ({ url: `/${title}`, title });
const file = (fileId: string): FileDescriptor => ({
  fileId,
  filename: `${fileId}.csv`,
  format: 'csv',
  downloadUrl: `/files/${fileId}`,
  sizeBytes: 3,
});

describe('how a call ended (outcomeOf)', () => {
  it('is a failure with no summary at all when the call has no output', () => {
    expect(outcomeOf(null)).toStrictEqual({ ok: false });
    expect('summary' in outcomeOf(null)).toBe(false);
  });

  it('is declined for an execution the person denied, whatever its reason', () => {
    expect(outcomeOf({ type: 'execution-denied' })).toStrictEqual({ ok: false, summary: 'declined' });
    expect(outcomeOf({ type: 'execution-denied', reason: 'error: no' })).toStrictEqual({
      ok: false,
      summary: 'declined',
    });
  });

  it('summarizes an error by its code before the first colon, the whole text when there is none, at most 64 characters', () => {
    expect(outcomeOf({ type: 'error-text', value: 'interrupt_timed_out: Too late: really.' })).toStrictEqual({
      ok: false,
      summary: 'interrupt_timed_out',
    });
    expect(outcomeOf({ type: 'error-text', value: 'The diagram is locked' })).toStrictEqual({
      ok: false,
      summary: 'The diagram is locked',
    });
    expect(outcomeOf({ type: 'error-text', value: `${'x'.repeat(80)}: long` })).toStrictEqual({
      ok: false,
      summary: 'x'.repeat(64),
    });
  });

  it('is ok for a JSON result', () => {
    expect(outcomeOf({ type: 'json', value: { error: 'not an error' } })).toStrictEqual({
      ok: true,
      summary: 'ok',
    });
  });
});

describe('the tool.finished event (toolFinished)', () => {
  const call = { id: ID, turnId: 'turn_1', tool: 'read_page' };

  it('has no summary key when the outcome has none', () => {
    const event = toolFinished(call, { ok: false });
    expect(event).toStrictEqual({
      type: 'tool.finished',
      turnId: 'turn_1',
      toolCallId: ID,
      tool: 'read_page',
      ok: false,
    });
    expect('summary' in event).toBe(false);
    expect('summary' in toolFinished(call, { ok: true, summary: undefined })).toBe(false);
  });

  it('carries a given summary, even an empty one', () => {
    expect(toolFinished(call, { ok: false, summary: 'declined' })).toStrictEqual({
      type: 'tool.finished',
      turnId: 'turn_1',
      toolCallId: ID,
      tool: 'read_page',
      ok: false,
      summary: 'declined',
    });
    expect(toolFinished(call, { ok: true, summary: '' })).toMatchObject({ summary: '' });
  });
});

describe('the message that closes a step (stepResultsMessage)', () => {
  it('takes the snapshot of the browser navigate call only, and every answer’s file in order', () => {
    const calls = [
      // A server tool that happens to be called navigate is not the page's navigation.
      record({
        modelCallId: 'a',
        tool: 'navigate',
        kind: 'server',
        answer: { snapshot: snapshot('server') },
      }),
      // Another browser tool's snapshot is not the navigation's either.
      record({
        modelCallId: 'b',
        tool: 'read_page',
        answer: { snapshot: snapshot('read'), file: file('f1') },
      }),
      record({
        modelCallId: 'c',
        tool: 'navigate',
        answer: { snapshot: snapshot('navigated'), file: file('f2') },
      }),
      record({ modelCallId: 'd', tool: 'export_csv', output: null, answer: { file: file('f3') } }),
    ];
    const message = stepResultsMessage('turn_1', calls);
    expect(message.turnId).toBe('turn_1');
    expect(message.snapshot).toStrictEqual(snapshot('navigated'));
    expect(message.files).toStrictEqual([file('f1'), file('f2'), file('f3')]);
    expect(message.content).toStrictEqual({
      role: 'tool',
      content: [
        { type: 'tool-result', toolCallId: 'a', toolName: 'navigate', output: { type: 'json', value: 'ok' } },
        {
          type: 'tool-result',
          toolCallId: 'b',
          toolName: 'read_page',
          output: { type: 'json', value: 'ok' },
        },
        { type: 'tool-result', toolCallId: 'c', toolName: 'navigate', output: { type: 'json', value: 'ok' } },
        {
          type: 'tool-result',
          toolCallId: 'd',
          toolName: 'export_csv',
          output: { type: 'error-text', value: 'internal: No result.' },
        },
      ],
    });
  });

  it('takes the snapshot of a navigate call that is the step’s first or only call', () => {
    const first = stepResultsMessage('turn_1', [
      record({ tool: 'navigate', answer: { snapshot: snapshot('first') } }),
      record({ tool: 'read_page', answer: { snapshot: snapshot('read') } }),
    ]);
    expect(first.snapshot).toStrictEqual(snapshot('first'));
    expect(first.files).toStrictEqual([]);
  });

  it('has no snapshot without a browser navigate call, and no files when no answer has one', () => {
    const message = stepResultsMessage('turn_1', [
      record({ tool: 'navigate', kind: 'server', answer: { snapshot: snapshot('server') } }),
      record({ tool: 'read_page', answer: { snapshot: snapshot('read') } }),
      record({ tool: 'highlight_row', answer: null }),
    ]);
    expect(message.snapshot).toBeNull();
    expect(message.files).toStrictEqual([]);
  });

  it('has a null snapshot when the navigate answer carries none, or there is no answer yet', () => {
    const bare = stepResultsMessage('turn_1', [
      record({ tool: 'read_page', answer: { snapshot: snapshot('read') } }),
      record({ tool: 'navigate', answer: { ok: true } }),
    ]);
    expect(bare.snapshot).toBeNull();
    const unanswered = stepResultsMessage('turn_1', [record({ tool: 'navigate', answer: null })]);
    expect(unanswered.snapshot).toBeNull();
    expect(unanswered.files).toStrictEqual([]);
  });
});

describe('a call as its visitor asks for it (requireCallOfVisitor)', () => {
  const session: VisitorSession = {
    id: 'vs_1',
    assistantId: 'asst_1',
    visitorId: 'anon_1',
    origin: 'http://shop.localhost',
    expiresAt: 0,
  };

  /** A store that would find a call under any id: only the id's shape keeps the junk out. */
  function hubFindingAnything() {
    const ofVisitor = vi.fn(async (id: string) => ({
      call: record({ id, kind: 'browser', status: 'interrupt' }),
      conversationId: 'conv_1',
    }));
    return { ofVisitor, hub: { toolCalls: { ofVisitor } } as unknown as HubServices };
  }

  it('asks the store for a well-formed id and answers with its turn', async () => {
    const { hub, ofVisitor } = hubFindingAnything();
    const found = await requireCallOfVisitor(hub, session, ID, ['browser']);
    expect(found.turn).toStrictEqual({ id: 'turn_1', conversationId: 'conv_1' });
    expect(found.call.id).toBe(ID);
    expect(ofVisitor).toHaveBeenCalledWith(ID, session);
  });

  it.each([
    ['a prefix before tc_', `x${ID}`],
    ['a suffix after the 36 characters', `${ID}0`],
    ['a path after the id', `${ID}/../tc_x`],
    ['a line after the id', `${ID}\nx`],
  ])('is not_found for an id with %s, without asking the store', async (_, id) => {
    const { hub, ofVisitor } = hubFindingAnything();
    await expect(requireCallOfVisitor(hub, session, id, ['browser'])).rejects.toMatchObject({
      code: 'not_found',
    });
    expect(ofVisitor).not.toHaveBeenCalled();
  });

  it('is not_found for a call of another kind than asked', async () => {
    const { hub } = hubFindingAnything();
    await expect(requireCallOfVisitor(hub, session, ID, ['server'])).rejects.toMatchObject({
      code: 'not_found',
    });
  });
});
