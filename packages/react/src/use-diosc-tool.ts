import type { BrowserToolHandler } from '@diosc/kit';
import { useEffect, useState } from 'react';
import { useKitBindings } from './diosc-provider.js';
import { useLatest } from './use-latest.js';

/**
 * `diosc('tool', name, handler)` for as long as the component is mounted. The kit calls the handler
 * of the latest render (it sees current state and props) while the tool stays registered once;
 * StrictMode's mount–unmount–mount leaves it registered; on unmount it is removed, so a call that
 * arrives afterwards fails at once instead of running a handler whose component is gone.
 */
export function useDioscTool(name: string, handler: BrowserToolHandler): void {
  const bindings = useKitBindings('useDioscTool');
  const latest = useLatest(handler);
  const [owner] = useState(() => Symbol(name));
  useEffect(() => {
    bindings.setTool(name, owner, (params) => latest.current(params));
    return () => bindings.clearTool(name, owner);
  }, [bindings, name, owner, latest]);
}
