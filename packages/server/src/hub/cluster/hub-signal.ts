/**
 * What one instance tells the others, so they act at once instead of at their next poll:
 * `events` — a conversation's log grew (streams read it again); `runnable` — a turn is `running`
 * with nobody holding its lease (a runner takes it); `cancel` — a turn was cancelled (the instance
 * running its step aborts the model call). A signal is only ever a hint: the store says what is true,
 * and a lost signal costs latency (the fallback poll and the orphan sweep find the work), never data.
 */
export type HubSignal =
  | { kind: 'events'; conversationId: string }
  | { kind: 'runnable'; turnId: string }
  | { kind: 'cancel'; turnId: string };

const CODES = { events: 'e', runnable: 'r', cancel: 'c' } as const;
const KINDS: Record<string, HubSignal['kind']> = { e: 'events', r: 'runnable', c: 'cancel' };

/** `<instance>|<code>|<id>`: ids are our own (`cnv_…`, `trn_…`) and never contain a `|`. */
export function encodeSignal(instance: string, signal: HubSignal): string {
  const id = signal.kind === 'events' ? signal.conversationId : signal.turnId;
  return `${instance}|${CODES[signal.kind]}|${id}`;
}

export function decodeSignal(payload: string): { instance: string; signal: HubSignal } | undefined {
  const [instance, code, id, ...rest] = payload.split('|');
  const kind = code === undefined ? undefined : KINDS[code];
  if (!instance || !kind || !id || rest.length > 0) return undefined;
  return {
    instance,
    signal: kind === 'events' ? { kind, conversationId: id } : { kind, turnId: id },
  };
}

/** Signals between the instances over one store; `local` (SQLite, one process) has nobody to tell. */
export interface HubSignals {
  readonly instance: string;
  /** 'notify' when the signals cross instances (PostgreSQL), 'local' when there are none. */
  readonly mode: 'notify' | 'local';
  /** Starts listening; resolves once listening (or, the store unreachable, once retrying). */
  start(): Promise<void>;
  send(signal: HubSignal): void;
  /** Signals from other instances; `lost` after a gap in listening (every subscriber must re-read). */
  subscribe(listener: (signal: HubSignal | 'lost') => void): () => void;
  close(): Promise<void>;
}

export function localSignals(instance: string): HubSignals {
  return {
    instance,
    mode: 'local',
    async start() {},
    send() {},
    subscribe: () => () => {},
    async close() {},
  };
}
