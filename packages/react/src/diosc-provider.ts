import { diosc, type InitOptions } from '@diosc/kit';
import {
  createContext,
  createElement,
  type ReactElement,
  type ReactNode,
  useContext,
  useEffect,
  useState,
} from 'react';
import { KitBindings } from './kit-bindings.js';
import { useLatest } from './use-latest.js';

const BindingsContext = createContext<KitBindings | null>(null);

export interface DioscProviderProps extends InitOptions {
  children?: ReactNode;
}

/**
 * Starts the page's kit (`diosc('init', …)`) while mounted and stops it (`destroy`) when unmounted.
 * A change of hub, key, identity, locale, theme or WebMCP starts it afresh; `open`, `mount` and
 * `fetch` are read when it starts. One provider per page: the kit is one per page. (It returns an
 * element, not any ReactNode: older React 18 type packages accept only that from a component.)
 */
export function DioscProvider({ children, ...options }: DioscProviderProps): ReactElement {
  const [bindings] = useState(() => new KitBindings(diosc));
  const latest = useLatest(options);
  const { hubUrl, publishableKey, identity, locale, webmcp } = options;
  const theme = JSON.stringify(options.theme ?? null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: restarts only for the options that change the session; the rest are read when it starts.
  useEffect(() => {
    bindings.diosc('init', latest.current);
    bindings.reapply();
    return () => bindings.diosc('destroy');
  }, [bindings, hubUrl, publishableKey, identity, locale, webmcp, theme]);
  return createElement(BindingsContext.Provider, { value: bindings }, children);
}

/** The provider's bindings; the hooks are meaningless without one. */
export function useKitBindings(hook: string): KitBindings {
  const bindings = useContext(BindingsContext);
  if (!bindings) throw new Error(`${hook} needs a <DioscProvider> above it`);
  return bindings;
}
