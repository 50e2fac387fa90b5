import type { BrowserAdapter, BrowserToolHandler, Diosc, NavigationHandler } from '@diosc/kit';

/** Who set a binding: the component instance (one symbol per mounted hook) that may also clear it. */
export type Owner = symbol;

/**
 * What the page's components have bound to the kit: tools, the browser adapter, the navigation
 * handler, each with its owner. `diosc('destroy')` forgets all of them, so when the provider starts
 * the kit again (new options, StrictMode's second mount) it applies them again from here; and only
 * a binding's owner clears it, so a component that unmounts never removes its successor's tool.
 */
export class KitBindings {
  readonly #tools = new Map<string, { owner: Owner; handler: BrowserToolHandler }>();
  #adapter: { owner: Owner; adapter: BrowserAdapter } | null = null;
  #navigation: { owner: Owner; handler: NavigationHandler } | null = null;

  constructor(readonly diosc: Diosc) {}

  setTool(name: string, owner: Owner, handler: BrowserToolHandler): void {
    this.#tools.set(name, { owner, handler });
    this.diosc('tool', name, handler);
  }

  clearTool(name: string, owner: Owner): void {
    if (this.#tools.get(name)?.owner !== owner) return;
    this.#tools.delete(name);
    this.diosc('tool', name, null);
  }

  setAdapter(owner: Owner, adapter: BrowserAdapter): void {
    this.#adapter = { owner, adapter };
    this.diosc('browserAdapter', adapter);
  }

  clearAdapter(owner: Owner): void {
    if (this.#adapter?.owner !== owner) return;
    this.#adapter = null;
    this.diosc('browserAdapter', null);
  }

  setNavigation(owner: Owner, handler: NavigationHandler): void {
    this.#navigation = { owner, handler };
    this.diosc('setNavigationHandler', handler);
  }

  clearNavigation(owner: Owner): void {
    if (this.#navigation?.owner !== owner) return;
    this.#navigation = null;
    this.diosc('setNavigationHandler', null);
  }

  /** After `init`: everything bound so far, again (a `destroy` before it forgot them). */
  reapply(): void {
    for (const [name, { handler }] of this.#tools) this.diosc('tool', name, handler);
    if (this.#adapter) this.diosc('browserAdapter', this.#adapter.adapter);
    if (this.#navigation) this.diosc('setNavigationHandler', this.#navigation.handler);
  }
}
