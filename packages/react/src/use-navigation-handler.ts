import type { NavigationHandler } from '@diosc/kit';
import { useEffect, useState } from 'react';
import { useKitBindings } from './diosc-provider.js';
import { useLatest } from './use-latest.js';

/**
 * `diosc('setNavigationHandler', handler)` for as long as the component is mounted: the kit's
 * `navigate` calls the latest render's handler and waits for the promise it returns before it
 * reads the new view. For React Router, `useReactRouterNavigation` from `@diosc/react/react-router`.
 */
export function useNavigationHandler(handler: NavigationHandler): void {
  const bindings = useKitBindings('useNavigationHandler');
  const latest = useLatest(handler);
  const [owner] = useState(() => Symbol('navigation'));
  useEffect(() => {
    bindings.setNavigation(owner, (path) => latest.current(path));
    return () => bindings.clearNavigation(owner);
  }, [bindings, owner, latest]);
}
