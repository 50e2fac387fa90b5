import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useNavigationHandler } from './use-navigation-handler.js';

/**
 * The assistant's `navigate` as a React Router navigation: a client-side route change, no reload.
 * Call it in a component inside the router that stays mounted (the layout). The kit's answer waits
 * until the new location has rendered — this component's effect runs after those of the route it
 * shows — so the tools and adapter the new route's components register are in the answer.
 */
export function useReactRouterNavigation(): void {
  const navigate = useNavigate();
  const location = useLocation();
  const waiting = useRef<{ from: string; done: () => void }[]>([]);
  useEffect(() => {
    // Every navigation makes a new location key, even to the same path or through a redirect.
    const arrived = waiting.current.filter((each) => each.from !== location.key);
    waiting.current = waiting.current.filter((each) => each.from === location.key);
    for (const each of arrived) each.done();
  }, [location]);
  useNavigationHandler(
    (path) =>
      new Promise<void>((done) => {
        waiting.current.push({ from: location.key, done });
        void navigate(path);
      }),
  );
}
