import { DioscError } from '@diosc/protocol';
import type { FakeConversation, FakeStream } from './fake-state.js';

/** Where a resumed stream starts; refused, as the hub refuses it, when it is no event id or past the newest. */
function resumePoint(conversation: FakeConversation, request: Request): number {
  const raw = request.headers.get('last-event-id') ?? new URL(request.url).searchParams.get('after') ?? '0';
  if (!/^\d{1,12}$/.test(raw)) throw new DioscError('invalid_input', 'Last-Event-ID must be an event id.');
  const after = Number(raw);
  const newest = conversation.events.length;
  if (after > newest)
    throw new DioscError(
      'event_id_ahead',
      `Last-Event-ID ${after} is past the newest event (${newest}) of this conversation; resume from ${newest} or below.`,
      { details: { lastEventId: newest } },
    );
  return after;
}

/**
 * `GET …/events`: the log after `Last-Event-ID` (or `?after=`), then live events, as Server-Sent
 * Events. The stream ends when the page aborts it or the test drops it.
 */
export function openFakeStream(conversation: FakeConversation, request: Request): Response {
  const after = resumePoint(conversation, request);
  const encoder = new TextEncoder();
  let stream: FakeStream | null = null;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      let open = true;
      stream = {
        send(event) {
          if (open)
            controller.enqueue(
              encoder.encode(`id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`),
            );
        },
        end() {
          if (!open) return;
          open = false;
          conversation.streams.delete(stream!);
          controller.close();
        },
      };
      controller.enqueue(encoder.encode(': connected\n\n'));
      for (const event of conversation.events) if (event.id > after) stream.send(event);
      conversation.streams.add(stream);
      request.signal.addEventListener('abort', () => stream?.end(), { once: true });
    },
    cancel() {
      if (stream) conversation.streams.delete(stream);
    },
  });
  return new Response(body, {
    headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-store' },
  });
}
