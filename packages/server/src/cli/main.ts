import { DioscError } from '@diosc/protocol';
import { ASSISTANTS_USAGE, assistantsCommand } from './assistants-command.js';
import { COLLECTIONS_USAGE, collectionsCommand } from './collections-command.js';
import { CONNECTIONS_USAGE, connectionsCommand } from './connections-command.js';
import { resetPasswordCommand } from './reset-password.js';

const USAGE = `Diosc command line (same configuration as the server: DIOSC_CONFIG, DIOSC_DATA_DIR, DATABASE_URL…)

${CONNECTIONS_USAGE}
${COLLECTIONS_USAGE}
${ASSISTANTS_USAGE}
  diosc reset-password`;

const out = (line: string) => process.stdout.write(`${line}\n`);

/** `npm run diosc -- <command>`. Exit status 0 on success, 1 on a refusal, 2 on a usage error. */
async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === 'connections') await connectionsCommand(rest, out);
  else if (command === 'collections') await collectionsCommand(rest, out);
  else if (command === 'assistants') await assistantsCommand(rest, out);
  else if (command === 'reset-password') await resetPasswordCommand(rest, out);
  else {
    (command === undefined || command === 'help' || command === '--help'
      ? process.stdout
      : process.stderr
    ).write(`${USAGE}\n`);
    return command === undefined || command === 'help' || command === '--help' ? 0 : 2;
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    const usage = (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    const message = DioscError.isInstance(error) || usage ? (error as Error).message : String(error);
    process.stderr.write(`diosc: ${message}\n`);
    process.exitCode = usage ? 2 : 1;
  },
);
