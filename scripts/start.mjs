// `npm start`: install what is missing, rebuild what is stale (the kit and the portal the server
// serves, and the server itself; not the examples, `npm run example` builds those), and run
// `diosc start` (SQLite under .data/, unless DATABASE_URL names a PostgreSQL).
import { mustBeBuilt } from './builds.mjs';
import { ensureDependencies } from './lib.mjs';

ensureDependencies();
mustBeBuilt(['@diosc/kit', '@diosc/portal', '@diosc/server'], { log: console.log });
// In this process, not a child: a SIGTERM to it (a service manager, a test) reaches the server and
// its clean shutdown, where a child would outlive it. The bin reads its command from process.argv.
process.argv.splice(2, process.argv.length, 'start');
await import('../packages/server/dist/diosc.js');
