import type { KitEventName } from '../types.js';
import { type Command, expectArgs, invalid } from './command.js';

const EVENTS: KitEventName[] = ['message', 'tool', 'consensus', 'error'];

/** `diosc('on', event, listener)`: `message`, `tool`, `consensus` or `error`. Returns the unsubscribe. */
export const on: Command = (kit, args) => {
  expectArgs(args, 2, "diosc('on', 'message' | 'tool' | 'consensus' | 'error', listener)");
  const [event, listener] = args;
  if (!EVENTS.includes(event as KitEventName))
    throw invalid(`unknown event ${JSON.stringify(event)}; the events are ${EVENTS.join(', ')}`);
  if (typeof listener !== 'function') throw invalid(`"${String(event)}": the listener must be a function`);
  const set = kit.listeners[event as KitEventName] as Set<unknown>;
  set.add(listener);
  return () => void set.delete(listener);
};
