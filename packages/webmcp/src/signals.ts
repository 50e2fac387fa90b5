/**
 * An AbortSignal that aborts when any input does, with that input's reason. Written out because
 * `AbortSignal.any` is missing from some DOM shims. `release()` detaches it from long-lived inputs
 * (a registration's signal outlives thousands of calls) once the call is over.
 */
export function anySignal(signals: readonly AbortSignal[]): { signal: AbortSignal; release(): void } {
  const controller = new AbortController();
  const release = () => {
    for (const signal of signals) signal.removeEventListener('abort', onAbort);
  };
  const onAbort = (event: Event) => {
    release();
    controller.abort((event.target as AbortSignal).reason);
  };
  const aborted = signals.find((signal) => signal.aborted);
  if (aborted) controller.abort(aborted.reason);
  else for (const signal of signals) signal.addEventListener('abort', onAbort);
  return { signal: controller.signal, release };
}

/** Settles like `promise`, or rejects with `signal`'s reason as soon as it aborts. */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
