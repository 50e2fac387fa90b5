import { EventEmitter } from 'node:events';
import type { HubEvent } from '@diosc/protocol';

/** What a stream hears: an event this process appended, or `undefined` — "read the log again". */
export type BusListener = (event: HubEvent | undefined) => void;

/**
 * Hands the streams of a conversation each event this process appended, so a stream that is caught
 * up sends it without reading the store, and wakes them when another instance appended (a signal
 * over the store) or when signals may have been missed. The log in the store stays the source of
 * truth: a wake-up carries no event, and a stream that sees a gap reads the log instead.
 *
 * It also remembers, per watched conversation, the newest event id it knows the log holds (one it
 * published, or one the log watch found), so the watch wakes a conversation's streams only when
 * its log has grown past that.
 */
export function createEventBus() {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  const newestKnown = new Map<string, number>();
  const wake = (conversationId: string) => emitter.emit(conversationId, undefined);
  return {
    publish(conversationId: string, event: HubEvent): void {
      if (emitter.listenerCount(conversationId) > 0 && event.id > (newestKnown.get(conversationId) ?? 0)) {
        newestKnown.set(conversationId, event.id);
      }
      emitter.emit(conversationId, event);
    },
    /** Another instance appended to this conversation's log. */
    wake,
    /** Signals may have been lost: every open stream reads its log again. */
    wakeAll(): void {
      for (const name of emitter.eventNames()) wake(name as string);
    },
    /**
     * The log watch found `newest` as this conversation's newest event: its streams read the log
     * if that is past anything this bus has known of, and not otherwise.
     */
    logReaches(conversationId: string, newest: number): void {
      if (emitter.listenerCount(conversationId) === 0) return;
      const known = newestKnown.get(conversationId);
      if (known !== undefined && newest <= known) return;
      newestKnown.set(conversationId, newest);
      wake(conversationId);
    },
    /**
     * A stream read the log up to `id`: the log holds at least that, so the watch wakes this
     * conversation's streams only for what comes after (a stream that just opened and read its
     * backlog is not made to read it again by the next look).
     */
    readUpTo(conversationId: string, id: number): void {
      if (emitter.listenerCount(conversationId) === 0) return;
      if (id > (newestKnown.get(conversationId) ?? 0)) newestKnown.set(conversationId, id);
    },
    /** The conversations some stream of this process is open on. */
    watched(): string[] {
      return emitter.eventNames() as string[];
    },
    subscribe(conversationId: string, listener: BusListener): () => void {
      emitter.on(conversationId, listener);
      return () => {
        emitter.off(conversationId, listener);
        if (emitter.listenerCount(conversationId) === 0) newestKnown.delete(conversationId);
      };
    },
  };
}

export type EventBus = ReturnType<typeof createEventBus>;
