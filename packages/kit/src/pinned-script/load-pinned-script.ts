import { LocalError } from '@diosc/protocol';

/** A file the build put beside the kit's own, with its Subresource Integrity digest. */
export interface PinnedScript {
  file: string;
  integrity: string;
}

/** What the kit needs of a Trusted Types policy: a script URL it may load. */
export interface ScriptUrlPolicy {
  createScriptURL(url: string): unknown;
}

/**
 * Read while the kit's script runs (later `currentScript` is someone else's): its URL, beside which
 * the parts are, and its nonce, which a page's nonce-only policy asks of every script.
 */
const kitScript = globalThis.document?.currentScript as HTMLScriptElement | null | undefined;
const base = kitScript?.src || globalThis.location?.href;
const nonce = kitScript?.nonce;

/** The policy name a host lists in `trusted-types` to let the kit load its parts. */
export const KIT_POLICY_NAME = 'diosc-kit';
const PART_FILE = /\/diosc-kit-(?:webmcp|markdown)\.[0-9a-f]{12}\.js$/;

let hostPolicy: ScriptUrlPolicy | undefined;
let ownPolicy: ScriptUrlPolicy | null | undefined;

/** `init({ trustedTypes })`: a policy of the host's own that the kit's part URLs go through. */
export function useTrustedTypesPolicy(policy: ScriptUrlPolicy | undefined): void {
  hostPolicy = policy;
}

/**
 * The kit's own policy, made on first use (a page without Trusted Types has none): it passes only
 * the kit's parts beside its own file, so it cannot be used to load anything else.
 */
function kitPolicy(): ScriptUrlPolicy | null {
  if (ownPolicy !== undefined) return ownPolicy;
  const factory = (
    globalThis as { trustedTypes?: { createPolicy(name: string, rules: object): ScriptUrlPolicy } }
  ).trustedTypes;
  try {
    ownPolicy =
      factory?.createPolicy(KIT_POLICY_NAME, {
        createScriptURL(url: string) {
          const parsed = new URL(url);
          if (parsed.origin !== new URL(base).origin || !PART_FILE.test(parsed.pathname))
            throw new TypeError(`${KIT_POLICY_NAME} loads only the kit's own parts, not ${url}`);
          return url;
        },
      }) ?? null;
  } catch {
    // The page's `trusted-types` does not name this policy: the URL goes as a string and the
    // browser refuses it if the page enforces Trusted Types (the load fails, and says why).
    ownPolicy = null;
  }
  return ownPolicy;
}

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
    const url = new URL(pinned.file, base).href;
    const script = document.createElement('script');
    try {
      const policy = hostPolicy ?? kitPolicy();
      // A TrustedScriptURL where the page enforces Trusted Types; a string everywhere else.
      script.src = (policy ? policy.createScriptURL(url) : url) as string;
    } catch (error) {
      reject(
        new LocalError(
          'transport_failed',
          `The ${what} was refused by the page's Trusted Types policy: list "${KIT_POLICY_NAME}" in its trusted-types directive, or pass init({ trustedTypes }).`,
          { cause: error },
        ),
      );
      return;
    }
    script.integrity = pinned.integrity;
    script.crossOrigin = 'anonymous';
    script.async = true;
    if (nonce) script.nonce = nonce;
    script.onload = () => {
      const part = scope[key];
      if (part) resolve(part);
      else reject(new LocalError('transport_failed', `The ${what} script did not load.`));
    };
    script.onerror = () =>
      reject(new LocalError('transport_failed', `The ${what} could not be loaded from ${url}.`));
    document.head.append(script);
  });
}
