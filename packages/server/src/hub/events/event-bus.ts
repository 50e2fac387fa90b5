import { EventEmitter } from 'node:events';
import type { HubEvent } from '@diosc/protocol';

/** What a stream hears: an event this process appended, or `undefined` — "read the log again". */
export type BusListener = (event: HubEvent | undefined) => void;

/**
 * Hands the streams of a conversation each event this process appended, so a stream that is caught
 * up sends it without reading the store, and wakes them when another instance appended (a signal
 * over the store) or when signals may have been missed. The log in the store stays the source of
 * truth: a wake-up carries no event, and a stream that sees a gap reads the log instead.
 */
export function createEventBus() {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    publish(conversationId: string, event: HubEvent): void {
      emitter.emit(conversationId, event);
    },
    /** Another instance appended to this conversation's log. */
    wake(conversationId: string): void {
      emitter.emit(conversationId, undefined);
    },
    /** Signals may have been lost: every open stream reads its log again. */
    wakeAll(): void {
      for (const name of emitter.eventNames()) emitter.emit(name, undefined);
    },
    subscribe(conversationId: string, listener: BusListener): () => void {
      emitter.on(conversationId, listener);
      return () => emitter.off(conversationId, listener);
    },
  };
}

export type EventBus = ReturnType<typeof createEventBus>;
