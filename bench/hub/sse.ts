// One Server-Sent Events reader for ours and the baseline, so both latencies go through the same
// client code: fetch, the protocol's parser, each event stamped with performance.now() on arrival.
import { performance } from 'node:perf_hooks';
import { createSseParser } from '@diosc/protocol';

export interface SseEvent {
  id: string | undefined;
  event: string | undefined;
  data: string;
  /** performance.now() when the event's last line was parsed. */
  at: number;
}

export class SseStream {
  readonly events: SseEvent[] = [];
  readonly ready: Promise<void>;
  readonly #abort = new AbortController();
  #wake: (() => void) | undefined;

  constructor(url: string, headers: Record<string, string>) {
    this.ready = this.#open(url, headers);
  }

  async #open(url: string, headers: Record<string, string>): Promise<void> {
    const response = await fetch(url, {
      headers: { accept: 'text/event-stream', ...headers },
      signal: this.#abort.signal,
    });
    if (response.status !== 200 || !response.body) {
      throw new Error(`events ${url}: ${response.status} ${await response.text()}`);
    }
    void this.#read(response.body);
  }

  async #read(body: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    const parse = createSseParser((message) => {
      this.events.push({
        id: message.id ?? undefined,
        event: message.event,
        data: message.data,
        at: performance.now(),
      });
      const wake = this.#wake;
      this.#wake = undefined;
      wake?.();
    });
    const reader = body.getReader();
    try {
      for (;;) {
        const { value: chunk, done } = await reader.read();
        if (done) break;
        parse(decoder.decode(chunk, { stream: true }));
      }
    } catch {
      // Aborted by close().
    }
  }

  /** The first event at index ≥ `from` of type `type`; waits for it up to `timeoutMs`. */
  async next(type: string, from: number, timeoutMs = 10_000): Promise<{ event: SseEvent; index: number }> {
    const deadline = performance.now() + timeoutMs;
    for (let index = from; ; index++) {
      while (index >= this.events.length) {
        const left = deadline - performance.now();
        if (left <= 0) throw new Error(`no "${type}" event within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          this.#wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
      const event = this.events[index]!;
      if (event.event === type) return { event, index };
    }
  }

  close(): void {
    this.#abort.abort();
  }
}
