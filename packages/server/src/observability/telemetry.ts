/**
 * What the server tells its operator, as one narrow interface the hub, `/mcp` and the store call
 * unconditionally: `NO_TELEMETRY` when metrics are off, so the code that runs turns never asks
 * whether they are on. Arguments are ids and codes only — never a visitor's text, a token or a
 * key — and each implementation keeps its label sets bounded (metrics.ts).
 */
export interface Telemetry {
  turnStarted(assistantId: string): void;
  turnFinished(assistantId: string): void;
  /** A turn ended `failed` with this error code. */
  turnFailed(assistantId: string, code: string): void;
  /** Starts timing one model step; the returned function ends it. */
  modelStep(assistantId: string): (outcome: 'ok' | 'error') => void;
  /** A page answered an interrupt `seconds` after the hub issued it. */
  browserRoundTrip(assistantId: string, seconds: number): void;
  consensusDecided(assistantId: string, outcome: ConsensusOutcome): void;
  /** One `/mcp` `tools/call`: the catalog function and `ok` or the refusal's code. */
  mcpCall(functionName: string, code: string): void;
  /** An event stream opened; the returned function closes it (call it once). */
  eventStreamOpened(): () => void;
  /** A file became visible in the store (an upload, a generated file). */
  fileStored(source: string): void;
  /** A store statement failed for a reason other than an expected race (see store-errors.ts). */
  storeError(): void;
}

export type ConsensusOutcome = 'approve' | 'edit' | 'reject' | 'timed_out';

const nothing = () => {};

export const NO_TELEMETRY: Telemetry = {
  turnStarted: nothing,
  turnFinished: nothing,
  turnFailed: nothing,
  modelStep: () => nothing,
  browserRoundTrip: nothing,
  consensusDecided: nothing,
  mcpCall: nothing,
  eventStreamOpened: () => nothing,
  fileStored: nothing,
  storeError: nothing,
};
