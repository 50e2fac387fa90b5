import { CodedError, type ConversationView, type FileDescriptor, type HubEvent } from '@diosc/protocol';
import { errorCode, errorText } from '../browser-calls/browser-call.js';
import { createInterruptRunner } from '../browser-calls/interrupt-runner.js';
import { createJournal } from '../browser-calls/journal.js';
import { pageLoaded } from '../browser-calls/page-ready.js';
import { fromView, isTurnActive } from '../conversation/conversation-state.js';
import { type EventStream, openEventStream, type StreamStatus } from '../hub-client/event-stream.js';
import { createHubClient } from '../hub-client/hub-client.js';
import { kitStorage } from '../hub-client/storage.js';
import { emit, type KitContext, type KitSession } from '../kit-context.js';
import type { InitOptions } from '../types.js';
import { routeEvent } from './route-event.js';
import { sendMessage } from './send-message.js';
import { createServerConsensus } from './server-consensus.js';

/**
 * Connects one kit to its hub: opens (or reuses) the visitor session, picks the tab's conversation
 * back up after a reload — its messages, the turn in flight, pending interrupts and approvals — and
 * follows its event stream from the last event id.
 */
export function startSession(kit: KitContext, options: InitOptions): KitSession {
  const local = kitStorage('local');
  const tab = kitStorage('session');
  const client = createHubClient({
    hubUrl: options.hubUrl,
    publishableKey: options.publishableKey,
    identity: options.identity,
    fetch: options.fetch ?? globalThis.fetch.bind(globalThis),
    storage: local,
  });
  const conversationKey = `conversation:${client.base}|${options.publishableKey}`;
  const runner = createInterruptRunner(kit, client, createJournal(local));
  const consensus = createServerConsensus(kit, client);
  let conversationId = tab.get<string>(conversationKey);
  let creating: Promise<string> | null = null;
  let stream: EventStream | null = null;
  let stopped = false;

  const setConnection = (connection: ReturnType<typeof kit.state.get>['connection'], error?: unknown) =>
    kit.state.update((state) => ({
      ...state,
      connection,
      error: error ? { code: errorCode(error), message: errorText(error) } : null,
    }));

  const fail = (error: unknown) => {
    setConnection('error', error);
    emit(kit, 'error', kit.state.get().error!);
  };

  const onEvent = (event: HubEvent) => routeEvent(kit, event, runner, consensus);

  const onStatus = (status: StreamStatus, error?: unknown) => {
    if (status === 'failed') return fail(error);
    if (status === 'open') return setConnection('ready');
    if (status === 'reconnecting')
      return setConnection(globalThis.navigator?.onLine === false ? 'offline' : 'reconnecting');
  };

  const listen = (id: string, after: number) => {
    stream?.close();
    stream = openEventStream({ client, conversationId: id, lastEventId: after, onEvent, onStatus });
  };

  const resume = async (id: string) => {
    let view: ConversationView;
    try {
      view = await client.call('conversation', { id });
    } catch (error) {
      if (!CodedError.isInstance(error) || error.code !== 'not_found') throw error;
      // Another visitor's, or gone: start afresh.
      conversationId = null;
      tab.remove(conversationKey);
      return setConnection('ready');
    }
    kit.state.update((state) => fromView(state, view));
    listen(id, view.lastEventId);
    await pageLoaded();
    for (const interrupt of view.pendingInterrupts) runner.handle(interrupt, true);
    for (const request of view.pendingConsensus) consensus.handle(request);
  };

  const start = async () => {
    setConnection('connecting');
    try {
      const { assistant } = await client.session();
      if (stopped) return;
      kit.state.update((state) => ({ ...state, assistant }));
      if (conversationId) await resume(conversationId);
      else setConnection('ready');
    } catch (error) {
      if (!stopped) fail(error);
    }
  };

  const online = () => stream?.reconnect();
  const offline = () => setConnection('offline');
  addEventListener('online', online);
  addEventListener('offline', offline);
  /** Settles once the stored conversation was resumed (or found gone): only then is its id known. */
  let started = start();

  const ensureConversation = async () => {
    await started;
    if (conversationId) return conversationId;
    creating ??= client
      .call('createConversation', { body: {} })
      .then(({ id }) => {
        conversationId = id;
        tab.set(conversationKey, id);
        listen(id, 0);
        return id;
      })
      .finally(() => {
        creating = null;
      });
    return creating;
  };

  return {
    client,
    conversationId: () => conversationId,
    ensureConversation,
    async send(text, attachments: FileDescriptor[] = []) {
      await sendMessage(kit, client, await ensureConversation(), text, attachments);
    },
    async cancelTurn() {
      const state = kit.state.get();
      if (state.turn && isTurnActive(state)) await client.call('cancelTurn', { id: state.turn.id });
    },
    retry() {
      if (kit.state.get().connection === 'error') started = start();
      else stream?.reconnect();
    },
    stop() {
      stopped = true;
      stream?.close();
      runner.stop();
      consensus.stop();
      removeEventListener('online', online);
      removeEventListener('offline', offline);
    },
  };
}
