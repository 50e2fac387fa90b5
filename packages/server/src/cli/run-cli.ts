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

/** Where a CLI run writes and what configures it: the process's own, or a test's. */
export interface CliIo {
  /** One line of output (stdout). */
  out(line: string): void;
  /** Text for stderr, newline included. */
  err(text: string): void;
  env: NodeJS.ProcessEnv;
}

async function dispatch(argv: string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  if (command === 'connections') await connectionsCommand(rest, io.out, io.env);
  else if (command === 'collections') await collectionsCommand(rest, io.out, io.env);
  else if (command === 'assistants') await assistantsCommand(rest, io.out, io.env);
  else if (command === 'reset-password') await resetPasswordCommand(rest, io.out, io.env);
  else {
    const help = command === undefined || command === 'help' || command === '--help';
    if (help) io.out(USAGE);
    else io.err(`${USAGE}\n`);
    return help ? 0 : 2;
  }
  return 0;
}

/**
 * One `diosc …` run: the exit status it ends with — 0 on success, 1 on a refusal, 2 on a usage
 * error — after writing what it prints to `io`. The process entry (`main.ts`) and the tests both
 * run this; the tests in-process, so they do not pay a TypeScript loader per command.
 */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  try {
    return await dispatch(argv, io);
  } catch (error) {
    const usage = (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    const message = DioscError.isInstance(error) || usage ? (error as Error).message : String(error);
    io.err(`diosc: ${message}\n`);
    return usage ? 2 : 1;
  }
}
