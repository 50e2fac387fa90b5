import type { InitOptions } from './types.js';

/**
 * `init` options written on the kit's own `<script>` tag, for a page whose Content Security Policy
 * allows no inline script: `<script async src="…/diosc-kit.js" data-hub-url="…"
 * data-publishable-key="pk_…">`. Only what an attribute can say; the rest goes through `init`.
 */
export function initFromScript(script: HTMLScriptElement | null | undefined): InitOptions | undefined {
  const data = script?.dataset;
  if (!data?.hubUrl || !data.publishableKey) return undefined;
  const flag = (value: string | undefined) => (value === undefined ? undefined : value !== 'false');
  const options: InitOptions = { hubUrl: data.hubUrl, publishableKey: data.publishableKey };
  if (data.locale) options.locale = data.locale;
  const webmcp = flag(data.webmcp);
  if (webmcp !== undefined) options.webmcp = webmcp;
  const open = flag(data.open);
  if (open !== undefined) options.open = open;
  return options;
}
