// The baseline for what an open SSE stream costs: the same number of streams held open by the
// bare node:http echo (no framework, no store), weighed the same way as the hub, and its CPU while
// they sit idle.
import { setTimeout as sleep } from 'node:timers/promises';
import { type Child, startChild } from './children.js';
import { SseStream } from './sse.js';

interface Weighed {
  memory: NodeJS.MemoryUsage;
  streams: number;
}

interface Usage {
  cpu: NodeJS.CpuUsage;
  /** The hub counts its SQL statements; the echo runs none. */
  statements?: number;
}

/** What a process spent over a window in which nobody asked it anything. */
export interface IdleCost {
  seconds: number;
  /** CPU time (user + system) over wall time: 0.01 is 1 % of one core. */
  cpuShare: number;
  statements?: number;
}

/** CPU and SQL statements of `child` over `seconds` of waiting, read from the child before and after. */
export async function idleCost(child: Child<unknown>, seconds: number): Promise<IdleCost> {
  const before = await child.ask<Usage>({ type: 'usage' });
  const started = performance.now();
  await sleep(seconds * 1000);
  const after = await child.ask<Usage>({ type: 'usage' });
  const wallMs = performance.now() - started;
  const cpuMs = (after.cpu.user + after.cpu.system - before.cpu.user - before.cpu.system) / 1000;
  return {
    seconds: wallMs / 1000,
    cpuShare: cpuMs / wallMs,
    ...(after.statements !== undefined && { statements: after.statements - (before.statements ?? 0) }),
  };
}

export async function bareStreamCost(count: number, idleSeconds: number) {
  const echo = await startChild<{ url: string }>('bench/hub/echo-server.ts');
  try {
    const before = await echo.ask<Weighed>({ type: 'measure' });
    const open = Array.from({ length: count }, (_, index) => {
      return new SseStream(`${echo.info.url}/events?stream=m${index}`, {});
    });
    await Promise.all(open.map((stream) => stream.ready));
    const after = await echo.ask<Weighed>({ type: 'measure' });
    const idle = await idleCost(echo, idleSeconds);
    for (const stream of open) stream.close();
    if (after.streams !== count) throw new Error(`the echo holds ${after.streams} of ${count} streams`);
    return {
      perStream: {
        heapUsed: (after.memory.heapUsed - before.memory.heapUsed) / count,
        external: (after.memory.external - before.memory.external) / count,
        rss: (after.memory.rss - before.memory.rss) / count,
      },
      idle,
    };
  } finally {
    await echo.stop();
  }
}
