import { DioscError, HUB_ROUTES, type HubEvent } from '@diosc/protocol';
import type { FastifyPluginAsync } from 'fastify';
import type { HubServices } from '../hub-services.js';

function resumePoint(header: string | null, query: unknown): number {
  const raw = header ?? (query as { after?: string } | undefined)?.after ?? '0';
  if (!/^\d{1,12}$/.test(raw)) throw new DioscError('invalid_input', 'Last-Event-ID must be an event id.');
  return Number(raw);
}

/**
 * A resume point past the newest event names an event this log never sent (ids only grow, one
 * by one): streaming from it would silently drop every event up to it, the next turn's first.
 * Checked before the stream opens; the log is append-only, so a point at or below the newest id
 * here stays valid.
 */
async function checkResumePoint(hub: HubServices, conversationId: string, cursor: number): Promise<void> {
  if (cursor === 0) return;
  const newest = await hub.events.lastId(conversationId);
  if (cursor > newest) {
    throw new DioscError(
      'event_id_ahead',
      `Last-Event-ID ${cursor} is past the newest event (${newest}) of this conversation; resume from ${newest} or below.`,
      { details: { lastEventId: newest } },
    );
  }
}

/**
 * `GET /conversations/:id/events`: the conversation's log as Server-Sent Events. It starts after
 * `Last-Event-ID` (or `?after=`), reads the store until it has caught up, then waits on the bus —
 * and reads the store again on every wake-up, so the stream never depends on a message held only
 * in memory. What no signal announced reaches it through the hub's one log watch (log-watch.ts). `reply.sse.send` waits for the socket to drain (back-pressure); the plugin sends
 * heartbeat comments.
 */
export function eventsRoute(hub: HubServices): FastifyPluginAsync {
  return async (app) => {
    app.get<{ Params: { id: string } }>(
      HUB_ROUTES.events.path,
      { sse: { kind: 'manual', heartbeat: true }, config: { visitorStream: true } },
      async (request, reply) => {
        const conversation = await hub.conversations.requireOwned(request.params.id, request.visitor!);
        let cursor = resumePoint(reply.sse.lastEventId, request.query);
        await checkResumePoint(hub, conversation.id, cursor);
        reply.header('cache-control', 'no-store');
        reply.header('x-accel-buffering', 'no');
        reply.sse.keepAlive();
        reply.sse.sendHeaders(200);
        // Headers go out now, so a client knows the stream is open before the first event.
        reply.raw.flushHeaders();
        const closeStream = hub.telemetry.eventStreamOpened();

        let wake: (() => void) | undefined;
        // `pending` asks for a read of the log; `heard` holds events this process appended.
        let pending = true;
        const heard: HubEvent[] = [];
        const unsubscribe = hub.bus.subscribe(conversation.id, (event) => {
          // No event: another instance appended (its signal), or signals were lost — read the log.
          if (event) heard.push(event);
          else pending = true;
          wake?.();
        });
        let open = true;
        // A stream with nothing to say ends after `streamIdleMs` (its slot under the visitor caps
        // comes back); the kit reconnects with `Last-Event-ID`, so nothing is missed.
        const idle = setTimeout(() => reply.sse.close(), request.server.diosc.http.streamIdleMs);
        idle.unref();
        reply.sse.onClose(() => {
          open = false;
          unsubscribe();
          wake?.();
        });
        try {
          while (open) {
            if (!pending && heard.length === 0) {
              await new Promise<void>((resolve) => {
                wake = resolve;
              });
              wake = undefined;
              if (!open) break;
            }
            // Caught up and the next event is the one just heard: send it without a read.
            while (!pending && open && heard.length > 0) {
              const event = heard.shift()!;
              if (event.id <= cursor) continue;
              if (event.id !== cursor + 1) {
                pending = true;
                break;
              }
              await reply.sse.send({ id: String(event.id), event: event.type, data: event });
              idle.refresh();
              cursor = event.id;
            }
            if (!pending) continue;
            pending = false;
            heard.length = 0;
            let batch: HubEvent[];
            do {
              batch = await hub.events.after(conversation.id, cursor);
              for (const event of batch) {
                if (!open) break;
                await reply.sse.send({ id: String(event.id), event: event.type, data: event });
                idle.refresh();
                cursor = event.id;
              }
            } while (open && batch.length > 0);
            hub.bus.readUpTo(conversation.id, cursor);
          }
        } finally {
          clearTimeout(idle);
          unsubscribe();
          closeStream();
        }
      },
    );
  };
}
