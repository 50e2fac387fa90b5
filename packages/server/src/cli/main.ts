import { runCli } from './run-cli.js';

/** `npm run diosc -- <command>`; see `runCli` for what it does and its exit statuses. */
runCli(process.argv.slice(2), {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (text) => process.stderr.write(text),
  env: process.env,
}).then((code) => {
  process.exitCode = code;
});
