// One Server-Sent Events reader for ours and the baseline, so both latencies go through the same
// client code: fetch, split on blank lines, stamp each event with performance.now() on arrival.
import { performance } from 'node:perf_hooks';

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
    let buffer = '';
    const reader = body.getReader();
    try {
      for (;;) {
        const { value: chunk, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(chunk, { stream: true });
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          this.#parse(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
          end = buffer.indexOf('\n\n');
        }
      }
    } catch {
      // Aborted by close().
    }
  }

  #parse(block: string): void {
    const event: SseEvent = { id: undefined, event: undefined, data: '', at: performance.now() };
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
      else if (line.startsWith('event:')) event.event = line.slice(6).trim();
      else if (line.startsWith('id:')) event.id = line.slice(3).trim();
    }
    if (data.length === 0) return; // a heartbeat comment
    event.data = data.join('\n');
    this.events.push(event);
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
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
