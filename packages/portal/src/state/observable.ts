import type { ReactiveController, ReactiveControllerHost } from 'lit';

/** A value that tells its subscribers when it changes. The portal's only state primitive. */
export class Observable<T> {
  #value: T;
  readonly #listeners = new Set<(value: T) => void>();

  constructor(initial: T) {
    this.#value = initial;
  }

  get value(): T {
    return this.#value;
  }

  set(next: T): void {
    if (Object.is(next, this.#value)) return;
    this.#value = next;
    for (const listener of [...this.#listeners]) listener(next);
  }

  subscribe(listener: (value: T) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}

export interface Subscribable {
  subscribe(listener: () => void): () => void;
}

/**
 * Re-renders a Lit host whenever any of the observables changes. The sources are read when the host
 * connects (its properties are set by then), so it can be created in the constructor.
 */
export class ObserveController implements ReactiveController {
  readonly #host: ReactiveControllerHost;
  readonly #sources: () => readonly Subscribable[];
  #unsubscribe: (() => void)[] = [];

  constructor(host: ReactiveControllerHost, sources: () => readonly Subscribable[]) {
    this.#host = host;
    this.#sources = sources;
    host.addController(this);
  }

  hostConnected(): void {
    this.#unsubscribe = this.#sources().map((source) => source.subscribe(() => this.#host.requestUpdate()));
  }

  hostDisconnected(): void {
    for (const unsubscribe of this.#unsubscribe) unsubscribe();
    this.#unsubscribe = [];
  }
}
