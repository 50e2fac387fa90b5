#!/usr/bin/env node
import { runCli } from './run-cli.js';

/**
 * The `diosc` bin. Run as built JavaScript (packages/server/dist/diosc.js, `npm run build`), never
 * through a TypeScript loader: see `runCli` for what it does and its exit statuses.
 */
// A reader that stops early (`diosc connections list | head -1`) ends the command quietly, as other
// command-line programs do, rather than with Node's unhandled EPIPE stack.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(process.exitCode ?? 0);
});
runCli(process.argv.slice(2), {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (text) => process.stderr.write(text),
  env: process.env,
}).then((code) => {
  process.exitCode = code;
});
