/**
 * tinykeys 3 ships its types at `dist/tinykeys.d.ts` but its `exports` map has no `types` entry, so
 * TypeScript's bundler resolution cannot find them. This restates the part the portal uses.
 */
declare module 'tinykeys' {
  export interface KeyBindingMap {
    [keybinding: string]: (event: KeyboardEvent) => void;
  }
  export interface KeyBindingOptions {
    event?: 'keydown' | 'keyup';
    capture?: boolean;
    timeout?: number;
  }
  export function tinykeys(
    target: Window | HTMLElement,
    keyBindingMap: KeyBindingMap,
    options?: KeyBindingOptions,
  ): () => void;
}
