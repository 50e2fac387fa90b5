import { ASSISTANTS_USAGE, AUDIT_USAGE, COLLECTIONS_USAGE, CONNECTIONS_USAGE } from './usage.js';

const USAGE = `Diosc command line (same configuration as the server: DIOSC_CONFIG, DIOSC_DATA_DIR, DATABASE_URL…)

  diosc start                          run the server (what \`npm start\` runs, after its build)
${CONNECTIONS_USAGE}
${COLLECTIONS_USAGE}
${ASSISTANTS_USAGE}
${AUDIT_USAGE}
  diosc reset-password`;

/** Where a CLI run writes and what configures it: the process's own, or a test's. */
export interface CliIo {
  /** One line of output (stdout). */
  out(line: string): void;
  /** Text for stderr, newline included. */
  err(text: string): void;
  env: NodeJS.ProcessEnv;
}

/**
 * Each command's module is imported only when it runs: they bring the store, the hub and the HTTP
 * server with them, and `diosc --help` (or one command) should not pay for the others.
 */
async function dispatch(argv: string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  if (command === 'start') {
    if (rest.length > 0) {
      io.err('Usage: diosc start (configured by the environment: DIOSC_PORT, DIOSC_DATA_DIR…)\n');
      return 2;
    }
    try {
      const { startServer } = await import('../start-server.js');
      await startServer(io.env);
    } catch (error) {
      // Said as `npm start` always said it: no listener, nothing half-started to report on.
      io.err(`Diosc failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
      return 1;
    }
  } else if (command === 'connections') {
    const { connectionsCommand } = await import('./connections-command.js');
    await connectionsCommand(rest, io.out, io.env);
  } else if (command === 'collections') {
    const { collectionsCommand } = await import('./collections-command.js');
    await collectionsCommand(rest, io.out, io.env);
  } else if (command === 'assistants') {
    const { assistantsCommand } = await import('./assistants-command.js');
    await assistantsCommand(rest, io.out, io.env);
  } else if (command === 'audit') {
    const { auditCommand } = await import('./audit-command.js');
    await auditCommand(rest, io);
  } else if (command === 'reset-password') {
    const { resetPasswordCommand } = await import('./reset-password.js');
    await resetPasswordCommand(rest, io.out, io.env);
  } else {
    const help = command === undefined || command === 'help' || command === '--help' || command === '-h';
    if (help) io.out(USAGE);
    else io.err(`${USAGE}\n`);
    return help ? 0 : 2;
  }
  return 0;
}

/**
 * One `diosc …` run: the exit status it ends with — 0 on success, 1 on a refusal, 2 on a usage
 * error — after writing what it prints to `io`. For `start`, 0 once the server listens (it keeps
 * the process alive). The bin (`main.ts`) and the tests both run this.
 */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  try {
    return await dispatch(argv, io);
  } catch (error) {
    const usage = (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    // Only an error path needs the protocol's error class; help and success never load it.
    const { DioscError } = await import('@diosc/protocol');
    const message = DioscError.isInstance(error) || usage ? (error as Error).message : String(error);
    io.err(`diosc: ${message}\n`);
    return usage ? 2 : 1;
  }
}
