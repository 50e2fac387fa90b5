import { LocalError } from '@diosc/protocol';

/** A file the build put beside the kit's own, with its Subresource Integrity digest. */
export interface PinnedScript {
  file: string;
  integrity: string;
}

/** The kit's own URL, read while the kit's script runs (later `currentScript` is someone else's). */
const base =
  (globalThis.document?.currentScript as HTMLScriptElement | null)?.src || globalThis.location?.href;

/**
 * Loads one of the built kit's on-demand parts: one more `<script>` from beside the kit's own file,
 * pinned with `integrity`, that puts what it exports under `key` on the global object. Parts stay
 * out of the kit's initial JavaScript this way; a part already loaded is not fetched again.
 */
export function loadPinnedScript<T>(pinned: PinnedScript, key: symbol, what: string): Promise<T> {
  const scope = globalThis as typeof globalThis & Record<symbol, T | undefined>;
  const loaded = scope[key];
  if (loaded) return Promise.resolve(loaded);
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = new URL(pinned.file, base).href;
    script.integrity = pinned.integrity;
    script.crossOrigin = 'anonymous';
    script.async = true;
    script.onload = () => {
      const part = scope[key];
      if (part) resolve(part);
      else reject(new LocalError('transport_failed', `The ${what} script did not load.`));
    };
    script.onerror = () =>
      reject(new LocalError('transport_failed', `The ${what} could not be loaded from ${script.src}.`));
    document.head.append(script);
  });
}
