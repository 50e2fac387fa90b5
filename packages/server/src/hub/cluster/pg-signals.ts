import type { FastifyBaseLogger } from 'fastify';
import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import type { Database } from '../../store/schema.js';
import { decodeSignal, encodeSignal, type HubSignal, type HubSignals } from './hub-signal.js';

/** The one channel every instance of a store listens on. */
export const SIGNAL_CHANNEL = 'diosc_hub';
/** How the listening connection names itself in `pg_stat_activity` (operators, and a test, find it). */
export const LISTENER_APPLICATION_NAME = 'diosc-hub-signals';
const RECONNECT_FIRST_MS = 100;
const RECONNECT_MAX_MS = 5_000;

export interface PgSignalsOptions {
  databaseUrl: string;
  /** The store's own pool sends (NOTIFY needs no connection of its own). */
  db: Kysely<Database>;
  instance: string;
  log: FastifyBaseLogger;
  /** Test seam: a signal this returns true for is dropped on arrival, as if never delivered. */
  dropIncoming?: (signal: HubSignal) => boolean;
}

/**
 * Signals over PostgreSQL `LISTEN/NOTIFY`. Each instance keeps (from `start`, before it serves) one dedicated connection that only
 * listens, and reconnects (with backoff) when it is lost; after a gap it tells its subscribers
 * `lost`, because notifications sent meanwhile are gone and only the store knows what happened.
 * Sending goes through the store's pool, coalesced per event-loop turn into one `pg_notify` query,
 * and always after the change it announces has committed (the caller awaits its write first).
 */
export function createPgSignals(options: PgSignalsOptions): HubSignals {
  const { db, instance, log } = options;
  const listeners = new Set<(signal: HubSignal | 'lost') => void>();
  const outgoing = new Set<string>();
  let flushing: NodeJS.Immediate | undefined;
  let client: pg.Client | undefined;
  let closed = false;
  let retryMs = RECONNECT_FIRST_MS;
  let retry: NodeJS.Timeout | undefined;

  const deliver = (signal: HubSignal | 'lost') => {
    for (const listener of listeners) listener(signal);
  };

  function flush(): void {
    flushing = undefined;
    const payloads = [...outgoing];
    outgoing.clear();
    if (payloads.length === 0 || closed) return;
    sql`select pg_notify(${SIGNAL_CHANNEL}, payload) from unnest(${payloads}::text[]) as payload`
      .execute(db)
      .catch((error: unknown) => log.warn({ err: error }, 'hub signal not sent'));
  }

  async function connect(recovering: boolean): Promise<void> {
    const next = new pg.Client({
      connectionString: options.databaseUrl,
      application_name: LISTENER_APPLICATION_NAME,
      keepAlive: true,
    });
    let lost = false;
    const onLost = (error?: unknown) => {
      if (lost) return;
      lost = true;
      if (client === next) client = undefined;
      next.removeAllListeners('notification');
      next.end().catch(() => {});
      if (closed) return;
      log.warn({ err: error }, 'hub signal listener lost; reconnecting');
      scheduleReconnect();
    };
    next.on('error', onLost);
    next.on('end', () => onLost());
    next.on('notification', (message) => {
      if (message.channel !== SIGNAL_CHANNEL || !message.payload) return;
      const decoded = decodeSignal(message.payload);
      // Our own signals: this process already acted on its own changes.
      if (!decoded || decoded.instance === instance) return;
      if (options.dropIncoming?.(decoded.signal)) return;
      deliver(decoded.signal);
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${SIGNAL_CHANNEL}`);
    } catch (error) {
      onLost(error);
      return;
    }
    if (closed) {
      await next.end().catch(() => {});
      return;
    }
    client = next;
    retryMs = RECONNECT_FIRST_MS;
    // Whatever was announced while nobody listened is in the store: every subscriber reads it.
    if (recovering) deliver('lost');
  }

  function scheduleReconnect(): void {
    if (closed || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      void connect(true);
    }, retryMs);
    retry.unref();
    retryMs = Math.min(retryMs * 2, RECONNECT_MAX_MS);
  }

  return {
    instance,
    mode: 'notify',
    start: () => connect(false),
    send(signal) {
      if (closed) return;
      outgoing.add(encodeSignal(instance, signal));
      flushing ??= setImmediate(flush);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      if (flushing) {
        clearImmediate(flushing);
        flush();
      }
      closed = true;
      if (retry) clearTimeout(retry);
      const current = client;
      client = undefined;
      await current?.end().catch(() => {});
    },
  };
}
