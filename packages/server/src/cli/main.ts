#!/usr/bin/env node
import { runCli } from './run-cli.js';

/**
 * The `diosc` bin. Run as built JavaScript (packages/server/dist/diosc.js, `npm run build`), never
 * through a TypeScript loader: see `runCli` for what it does and its exit statuses.
 */
runCli(process.argv.slice(2), {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (text) => process.stderr.write(text),
  env: process.env,
}).then((code) => {
  process.exitCode = code;
});
