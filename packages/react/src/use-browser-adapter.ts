import type { BrowserAdapter, IntentDefinition } from '@diosc/kit';
import { useEffect, useState } from 'react';
import { useKitBindings } from './diosc-provider.js';
import { useLatest } from './use-latest.js';

/** What the hub sees of an adapter: a change of it must reach the kit; a new closure need not. */
function shapeOf(adapter: BrowserAdapter): string {
  return JSON.stringify({
    read: Boolean(adapter.read),
    intents: adapter.intents?.map(({ name, description, schema, approval }) => ({
      name,
      description,
      schema,
      severity: approval?.severity,
      summary: Boolean(approval?.summary),
      diff: Boolean(approval?.diff),
    })),
  });
}

/**
 * `diosc('browserAdapter', { read, intents })` for as long as the component is mounted. `read`,
 * each intent's handler and its approval's `summary` and `diff` are those of the latest render;
 * the adapter is set again only when what the hub sees of it changes (names, descriptions,
 * schemas, severities). Unmounting clears it.
 */
export function useBrowserAdapter(adapter: BrowserAdapter): void {
  const bindings = useKitBindings('useBrowserAdapter');
  const latest = useLatest(adapter);
  const [owner] = useState(() => Symbol('browserAdapter'));
  const shape = shapeOf(adapter);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `shape` is what decides a new adapter; its functions come from `latest`.
  useEffect(() => {
    bindings.setAdapter(
      owner,
      forwarding(latest.current, () => latest.current),
    );
    return () => bindings.clearAdapter(owner);
  }, [bindings, owner, latest, shape]);
}

/** The adapter with every function forwarding to the latest render's. */
function forwarding(adapter: BrowserAdapter, current: () => BrowserAdapter): BrowserAdapter {
  const intent = (name: string): IntentDefinition | undefined =>
    current().intents?.find((each) => each.name === name);
  const forwarded: BrowserAdapter = {};
  if (adapter.read) forwarded.read = () => current().read?.() ?? { url: location.pathname, title: '' };
  if (adapter.intents)
    forwarded.intents = adapter.intents.map(({ name, description, schema, approval }) => ({
      name,
      description,
      schema,
      handler: (args) =>
        intent(name)?.handler(args) ?? {
          success: false,
          error: `intent "${name}" no longer available — page changed`,
        },
      ...(approval && {
        approval: {
          severity: approval.severity,
          ...(approval.summary && { summary: (args) => intent(name)?.approval?.summary?.(args) ?? name }),
          ...(approval.diff && { diff: (args) => intent(name)?.approval?.diff?.(args) ?? [] }),
        },
      }),
    }));
  return forwarded;
}
