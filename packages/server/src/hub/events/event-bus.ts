import { EventEmitter } from 'node:events';

/**
 * Wakes the streams of a conversation when its log grows. It carries only "something new up to id
 * N": the log in the store is the source of truth, so a missed wake-up is recovered by reading it.
 */
export function createEventBus() {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    publish(conversationId: string, id: number): void {
      emitter.emit(conversationId, id);
    },
    subscribe(conversationId: string, listener: (id: number) => void): () => void {
      emitter.on(conversationId, listener);
      return () => emitter.off(conversationId, listener);
    },
  };
}

export type EventBus = ReturnType<typeof createEventBus>;
