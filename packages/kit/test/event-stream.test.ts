// @vitest-environment happy-dom

import { describe, expect, it } from 'vitest';
import { openEventStream, type StreamStatus } from '../src/hub-client/event-stream.js';
import type { HubClient } from '../src/hub-client/hub-client.js';
import { eventually, startKit } from './support/harness.js';

describe('the event stream', () => {
  it('resumes after a dropped connection with Last-Event-ID and applies nothing twice', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { diosc, hub, kit } = startKit({
      script: async (turn) => {
        turn.text('one ');
        await gate;
        turn.text('two');
        turn.say('');
      },
    });
    await diosc('send', 'go');
    await eventually(() => expect(kit.state.get().draft?.text).toBe('one '));
    const conversation = [...hub.conversations.values()][0]!;
    const lastSeen = conversation.events.length;
    hub.dropStreams();
    await eventually(() => expect(kit.state.get().connection).toBe('reconnecting'));
    release();
    await hub.idle();
    await eventually(() => expect(kit.state.get().messages.at(-1)?.text).toBe('one two'));
    const streams = hub.requests.filter((r) => r.path.endsWith('/events'));
    expect(streams.length).toBeGreaterThanOrEqual(2);
    expect(streams.at(-1)!.headers['last-event-id']).toBe(String(lastSeen));
    expect(kit.state.get().connection).toBe('ready');
  });

  it('shows an error with retry when the hub refuses the key, and retries on request', async () => {
    const { kit, hub } = startKit({ init: { publishableKey: 'pk_wrong_key_0000' } });
    await eventually(() => expect(kit.state.get().connection).toBe('error'));
    expect(kit.state.get().error).toEqual({
      code: 'unknown_assistant',
      message: 'There is no assistant with that publishable key.',
    });
    kit.session!.retry();
    await eventually(() =>
      expect(hub.requests.filter((r) => r.path === '/api/hub/sessions')).toHaveLength(2),
    );
  });

  it('stops on event_id_ahead instead of retrying a resume point the hub will always refuse', async () => {
    const statuses: StreamStatus[] = [];
    let requests = 0;
    const refusal = {
      error: {
        code: 'event_id_ahead',
        message: 'Last-Event-ID 9 is past the newest event (4).',
        retryable: false,
      },
    };
    const client = {
      raw: async () => {
        requests++;
        return new Response(JSON.stringify(refusal), { status: 409 });
      },
    } as unknown as HubClient;
    const failed = new Promise<unknown>((resolve) => {
      openEventStream({
        client,
        conversationId: 'cnv_1',
        lastEventId: 9,
        onEvent: () => {},
        onStatus: (status, error) => {
          statuses.push(status);
          if (status === 'failed' || status === 'reconnecting') resolve(error);
        },
      });
    });
    expect(await failed).toMatchObject({ code: 'event_id_ahead' });
    expect(statuses).toEqual(['connecting', 'failed']);
    expect(requests).toBe(1);
  });
});
