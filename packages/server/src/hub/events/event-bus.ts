import { EventEmitter } from 'node:events';
import type { HubEvent } from '@diosc/protocol';

/**
 * Hands the streams of a conversation each event this process appended, so a stream that is caught
 * up sends it without reading the store. The log in the store stays the source of truth: a stream
 * that sees a gap (an event another instance wrote, one it missed) reads the log instead.
 */
export function createEventBus() {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    publish(conversationId: string, event: HubEvent): void {
      emitter.emit(conversationId, event);
    },
    subscribe(conversationId: string, listener: (event: HubEvent) => void): () => void {
      emitter.on(conversationId, listener);
      return () => emitter.off(conversationId, listener);
    },
  };
}

export type EventBus = ReturnType<typeof createEventBus>;
