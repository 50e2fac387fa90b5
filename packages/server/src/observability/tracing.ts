/** The turn a span belongs to: its id and its assistant's, the attributes every hub span carries. */
export interface TurnRef {
  turnId: string;
  assistantId: string;
}

export type WaitKind = 'interrupt' | 'consensus';

/** The model a step calls, as the span names it (OpenTelemetry's GenAI conventions). */
export interface ModelRef {
  provider: string;
  modelId: string;
}

/** What a finished model step tells its span: token counts and why the model stopped. */
export interface ModelStepOutcome {
  usage: { inputTokens: number; outputTokens: number };
  finishReason: string;
}

/** A model step's open span, as `modelStepBegan` returns it (none when it is not traced). */
export type ModelStepSpan = number | undefined;

/**
 * Spans of the hub, as one narrow interface (`NO_TRACING` when traces are off, so turn code never
 * asks). A turn is a span from the visitor's message to its end; under it each model step (one
 * provider call, with OpenTelemetry's `gen_ai.*` attributes), each server-tool call and each wait
 * on the page or the visitor. Attributes are ids, names, counts and codes only: never a prompt, a reply, an
 * argument, a provider's error text or a token.
 */
export interface Tracing {
  turnBegan(turn: TurnRef): void;
  turnEnded(turnId: string, outcome: 'done' | 'failed' | 'cancelled', code?: string): void;
  /**
   * One model step (one provider call) began: its span, ended by `modelStepEnded` with the token
   * counts or by `modelStepFailed`. A pair of calls, not a wrapper around the step: the step is
   * most of a round trip's work, and wrapping it would add an async frame to every one.
   */
  modelStepBegan(turn: TurnRef, step: number, model: ModelRef): ModelStepSpan;
  modelStepEnded(span: ModelStepSpan, outcome: ModelStepOutcome): void;
  modelStepFailed(span: ModelStepSpan, error: unknown): void;
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
  modelStepBegan: () => undefined,
  modelStepEnded: () => {},
  modelStepFailed: () => {},
  toolCall: (_turn, _tool, run) => run(),
  waitBegan: () => {},
  waitEnded: () => {},
  mcpCall: (_name, run) => run(),
  shutdown: async () => {},
};
