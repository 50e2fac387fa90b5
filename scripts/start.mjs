// `npm start`: install what is missing, rebuild what is stale (the kit and the portal the server
// serves, and the server itself; not the examples, `npm run example` builds those), and run
// `diosc start` (SQLite under .data/, unless DATABASE_URL names a PostgreSQL).
import { mustBeBuilt } from './builds.mjs';
import { ensureDependencies, must } from './lib.mjs';

ensureDependencies();
mustBeBuilt(['@diosc/kit', '@diosc/portal', '@diosc/server'], { log: console.log });
must(process.execPath, ['packages/server/dist/diosc.js', 'start'], { stdio: 'inherit' });
