// Samples this process's resident set every few milliseconds and serves the peak since the last
// reset on GET /__bench/memory(?reset=1), so the load generator can read a server's own memory.
import type { FastifyInstance } from 'fastify';

export function addMemoryProbe(app: FastifyInstance, everyMs = 5): () => void {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, everyMs);
  timer.unref();
  app.get('/__bench/memory', async (request) => {
    const rss = process.memoryUsage.rss();
    const answer = { rss, peak: Math.max(peak, rss) };
    if ((request.query as { reset?: string }).reset) {
      // Settle first so a reset measures from a quiet baseline, not the previous round's garbage.
      (globalThis as { gc?: () => void }).gc?.();
      peak = process.memoryUsage.rss();
      answer.rss = peak;
    }
    return answer;
  });
  return () => clearInterval(timer);
}
