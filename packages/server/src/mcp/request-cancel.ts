/**
 * One `/mcp` request's cancellation: set when its client goes away before the answer, when the
 * client cancels the call in a POST of its own (through the in-flight registry), or when its
 * exchange failed (the plugin sets it before closing the SDK's transport). The core only ever
 * asks whether it is set (`CallSignal`), so it is a flag, not an `AbortController`: Node 20 makes
 * every `AbortSignal` transferable, which costs a few microseconds per request to create, for
 * listeners nobody registers.
 */
export class RequestCancel {
  #aborted = false;

  get aborted(): boolean {
    return this.#aborted;
  }

  abort(): void {
    this.#aborted = true;
  }
}
