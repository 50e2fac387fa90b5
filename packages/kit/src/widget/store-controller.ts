import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { Store } from '../conversation/store.js';

/** Re-renders a Lit host whenever a kit store changes, while the host is connected. */
export class StoreController<T> implements ReactiveController {
  readonly #host: ReactiveControllerHost;
  readonly #store: () => Store<T> | undefined;
  #unsubscribe: (() => void) | null = null;

  constructor(host: ReactiveControllerHost, store: () => Store<T> | undefined) {
    this.#host = host;
    this.#store = store;
    host.addController(this);
  }

  get value(): T | undefined {
    return this.#store()?.get();
  }

  hostConnected(): void {
    this.#unsubscribe = this.#store()?.subscribe(() => this.#host.requestUpdate()) ?? null;
  }

  hostDisconnected(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = null;
  }
}
