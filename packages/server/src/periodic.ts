/**
 * Runs `task` every `intervalMs` for housekeeping (pruning receipts, files): never two runs at once,
 * a failure reported to `onError` and never thrown, and the timer unref'd so it never holds the
 * process open. Returns the function that stops it.
 *
 * @example
 * const stop = startPeriodic(() => files.prune(), { intervalMs: 3_600_000 });
 * app.addHook('onClose', async () => stop());
 */
export function startPeriodic(
  task: () => Promise<unknown>,
  options: { intervalMs: number; onError?: (error: unknown) => void },
): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    task()
      .catch((error: unknown) => options.onError?.(error))
      .finally(() => {
        running = false;
      });
  }, options.intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
