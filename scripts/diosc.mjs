// `npm run diosc -- <command>`: the `diosc` bin (packages/server/dist/diosc.js), rebuilt first when
// its sources changed since it was built, so a pull or an edit never runs an old command. The bin
// itself, run directly, does no such check: it is what an installed server runs.
import { mustBeBuilt } from './builds.mjs';

mustBeBuilt(['@diosc/server']);
// In this process: the bin reads process.argv from index 2, which holds the same arguments here.
await import('../packages/server/dist/diosc.js');
