import { CodedError, createSseParser, type HubEvent, hubPath, LocalError } from '@diosc/protocol';
import { decodeRefusal, type HubClient } from './hub-client.js';

export type StreamStatus = 'connecting' | 'open' | 'reconnecting' | 'failed';

export interface EventStreamOptions {
  client: HubClient;
  conversationId: string;
  /** Resume right after this event id (`Last-Event-ID`); 0 for the whole log. */
  lastEventId: number;
  onEvent(event: HubEvent): void;
  onStatus(status: StreamStatus, error?: unknown): void;
  /** Reconnect delays; the last one repeats. */
  backoffMs?: readonly number[];
}

export interface EventStream {
  /** The id of the last event delivered. */
  readonly lastEventId: number;
  /** Drops the current connection and reconnects at once (after `online`, or a retry). */
  reconnect(): void;
  close(): void;
}

const BACKOFF = [250, 1_000, 2_000, 5_000];
/**
 * Refusals that no reconnect can fix: stop and report. `event_id_ahead` means the resume point is
 * past the log's end; retrying it would be refused forever. (`too_many_open` is retried: a stream
 * of the same visitor may close.)
 */
const FATAL = new Set([
  'not_found',
  'unauthenticated',
  'session_expired',
  'forbidden_origin',
  'event_id_ahead',
]);

/**
 * The conversation's events over `fetch` — `EventSource` cannot send the bearer header. A dropped
 * connection reconnects with `Last-Event-ID`, so the hub replays exactly what was missed; an event
 * with an id at or below the last one delivered is dropped, so nothing is applied twice.
 */
export function openEventStream(options: EventStreamOptions): EventStream {
  let last = options.lastEventId;
  let closed = false;
  let attempt = 0;
  let current: AbortController | null = null;
  let wake: (() => void) | null = null;
  const backoff = options.backoffMs ?? BACKOFF;

  const deliver = (id: string | null, data: string) => {
    const numeric = Number(id);
    if (id !== null && Number.isFinite(numeric) && numeric <= last) return;
    let event: HubEvent;
    try {
      event = JSON.parse(data) as HubEvent;
    } catch {
      return;
    }
    if (Number.isFinite(numeric)) last = numeric;
    attempt = 0;
    options.onEvent(event);
  };

  const connectOnce = async (signal: AbortSignal) => {
    const headers: Record<string, string> = { accept: 'text/event-stream' };
    if (last > 0) headers['last-event-id'] = String(last);
    const response = await options.client.raw(hubPath('events', options.conversationId), { headers, signal });
    if (!response.ok) throw await decodeRefusal(response);
    if (!response.body) throw new LocalError('transport_failed', 'The event stream has no body.');
    options.onStatus('open');
    const parse = createSseParser((message) => deliver(message.id, message.data));
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    signal.addEventListener('abort', () => void reader.cancel().catch(() => {}), { once: true });
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      parse(decoder.decode(value, { stream: true }));
    }
  };

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  const loop = async () => {
    options.onStatus('connecting');
    while (!closed) {
      current = new AbortController();
      try {
        await connectOnce(current.signal);
      } catch (error) {
        if (closed) return;
        if (CodedError.isInstance(error) && FATAL.has(error.code)) {
          options.onStatus('failed', error);
          return;
        }
      }
      if (closed) return;
      options.onStatus('reconnecting');
      await sleep(backoff[Math.min(attempt++, backoff.length - 1)]!);
      wake = null;
    }
  };
  void loop();

  return {
    get lastEventId() {
      return last;
    },
    reconnect() {
      attempt = 0;
      current?.abort();
      wake?.();
    },
    close() {
      closed = true;
      current?.abort();
      wake?.();
    },
  };
}
