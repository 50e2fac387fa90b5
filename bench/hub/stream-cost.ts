// The baseline for what an open SSE stream costs: the same number of streams held open by the
// bare node:http echo (no framework, no store), weighed the same way as the hub.
import { startChild } from './children.js';
import { SseStream } from './sse.js';

interface Weighed {
  memory: NodeJS.MemoryUsage;
  streams: number;
}

export async function bareStreamCost(count: number) {
  const echo = await startChild<{ url: string }>('bench/hub/echo-server.ts');
  try {
    const before = await echo.ask<Weighed>({ type: 'measure' });
    const open = Array.from({ length: count }, (_, index) => {
      return new SseStream(`${echo.info.url}/events?stream=m${index}`, {});
    });
    await Promise.all(open.map((stream) => stream.ready));
    const after = await echo.ask<Weighed>({ type: 'measure' });
    for (const stream of open) stream.close();
    if (after.streams !== count) throw new Error(`the echo holds ${after.streams} of ${count} streams`);
    return {
      heapUsed: (after.memory.heapUsed - before.memory.heapUsed) / count,
      external: (after.memory.external - before.memory.external) / count,
      rss: (after.memory.rss - before.memory.rss) / count,
    };
  } finally {
    await echo.stop();
  }
}
