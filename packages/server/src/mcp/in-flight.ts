/**
 * The tool calls of this process that are still running, so a `notifications/cancelled` can reach
 * them. In stateless Streamable HTTP the cancellation arrives in its own POST, answered by its own
 * SDK server instance, which never saw the call; this registry is what links the two. Keys are
 * scoped by connection, so one connection can cancel only its own calls.
 */
export function createInFlight() {
  const calls = new Map<string, { abort(): void }>();
  const keyOf = (connectionId: string, requestId: string | number) =>
    `${connectionId}\u0000${typeof requestId}\u0000${String(requestId)}`;
  return {
    /** Tracks a call until the returned function is called; `controller` is aborted on cancel. */
    track(connectionId: string, requestId: string | number, controller: { abort(): void }): () => void {
      const key = keyOf(connectionId, requestId);
      calls.set(key, controller);
      return () => {
        if (calls.get(key) === controller) calls.delete(key);
      };
    },
    /** Aborts the named call of this connection, if it is still running; true when one was found. */
    cancel(connectionId: string, requestId: string | number): boolean {
      const controller = calls.get(keyOf(connectionId, requestId));
      if (!controller) return false;
      controller.abort();
      return true;
    },
    get size(): number {
      return calls.size;
    },
  };
}

export type InFlight = ReturnType<typeof createInFlight>;
