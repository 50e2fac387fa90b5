/**
 * What npm run by `npm test` or `npm run` leaves in the environment and would tie a child npm to
 * this workspace (its prefix, package, lifecycle) — dropped for npm run outside it, as in a user's
 * shell. Registry, cache and certificate settings (`npm_config_*` otherwise) are kept. Vitest's
 * `NODE_ENV=test` and `VITEST*` go too: a user's production build does not run under them.
 */
const WORKSPACE_BOUND =
  /^(npm_(package_|lifecycle_)|npm_command$|npm_config_(local_prefix|call|workspaces?|include_workspace_root)$|VITEST|NODE_ENV$)/i;

export function outsideEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([key]) => !WORKSPACE_BOUND.test(key)));
}
