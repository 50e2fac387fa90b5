import type { TelemetrySettings } from 'ai';

/** The turn a span belongs to: its id and its assistant's, the attributes every hub span carries. */
export interface TurnRef {
  turnId: string;
  assistantId: string;
}

export type WaitKind = 'interrupt' | 'consensus';

/**
 * Spans of the hub, as one narrow interface (`NO_TRACING` when traces are off, so turn code never
 * asks). A turn is a span from the visitor's message to its end; under it each model step (with
 * the AI SDK's own `ai.streamText` spans inside), each server-tool call and each wait on the page or
 * the visitor. Attributes are ids, names and codes only: never a prompt, a reply, an argument, a
 * provider's error text or a token (span-tracing.ts scrubs what the AI SDK would add).
 */
export interface Tracing {
  turnBegan(turn: TurnRef): void;
  turnEnded(turnId: string, outcome: 'done' | 'failed' | 'cancelled', code?: string): void;
  /** Runs one model step in its span; `run` gets the AI SDK's `experimental_telemetry` for it. */
  modelStep<T>(
    turn: TurnRef,
    step: number,
    run: (ai: TelemetrySettings | undefined) => Promise<T>,
  ): Promise<T>;
  /** Runs one server-tool call in its span; `codeOf` names its result (`ok` or an error code). */
  toolCall<T>(turn: TurnRef, tool: string, run: () => Promise<T>, codeOf: (result: T) => string): Promise<T>;
  /** The hub now waits on the page (a browser tool) or the visitor (an approval) for `callId`. */
  waitBegan(turn: TurnRef, callId: string, kind: WaitKind, tool: string): void;
  /** The wait ended: `answered`, `approve`/`edit`/`reject`, `timed_out` or `cancelled`. */
  waitEnded(callId: string, outcome: string): void;
  /** Runs one `/mcp` `tools/call` in its span. */
  mcpCall<T>(functionName: string, run: () => Promise<T>, codeOf: (result: T) => string): Promise<T>;
  /** Sends what is buffered and stops (the app's close). */
  shutdown(): Promise<void>;
}

export const NO_TRACING: Tracing = {
  turnBegan: () => {},
  turnEnded: () => {},
  modelStep: (_turn, _step, run) => run(undefined),
  toolCall: (_turn, _tool, run) => run(),
  waitBegan: () => {},
  waitEnded: () => {},
  mcpCall: (_name, run) => run(),
  shutdown: async () => {},
};
