import type { FastifyInstance } from 'fastify';

export interface RouteEntry {
  method: string;
  /** The route's path with its parameters filled in with `param`. */
  path: string;
  /** True when the path has parameters. */
  parameterized: boolean;
}

/**
 * Every route the app registered, read from Fastify's own route tree (`printRoutes`), so a route
 * added later is covered without anyone remembering to list it. `*` (the portal shell) becomes a
 * client route; parameters are filled with `param`.
 */
export function routesOf(app: FastifyInstance, param = 'x'): RouteEntry[] {
  const tree = app.printRoutes({ commonPrefix: false, includeHooks: false });
  const stack: string[] = [];
  const routes: RouteEntry[] = [];
  for (const line of tree.split('\n')) {
    const match = /^([│ ├└─]*?)(?:[├└]── )?(\S+) \(([A-Z, ]+)\)$/.exec(line);
    if (!match) continue;
    const depth = line.indexOf('── ') === -1 ? 0 : (line.indexOf('── ') - 1) / 4 + 1;
    stack.length = depth;
    const parent = depth === 0 ? '' : (stack[depth - 1] ?? '');
    const full = `${parent}${match[2]}`;
    stack[depth] = full;
    const path = full.replace('*', 'collections').replace(/:[a-zA-Z]+/g, param);
    for (const method of match[3]!.split(', ')) {
      routes.push({ method, path, parameterized: full.includes(':') });
    }
  }
  return routes;
}
