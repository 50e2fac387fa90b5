import { runCli } from '../../../src/cli/run-cli.js';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * `diosc …` in this process through `runCli`, the function the bin runs: its exit code and what
 * it printed. The tests of the bin as a process (exit statuses, streams, what it loads) spawn it.
 */
export async function runDiosc(args: string[], env: NodeJS.ProcessEnv): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    out: (line) => {
      stdout += `${line}\n`;
    },
    err: (text) => {
      stderr += text;
    },
    env,
  });
  return { code, stdout, stderr };
}

/** A CLI test's environment: its own data folder, a known first owner password, no log lines. */
export function cliTestEnv(dir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DIOSC_DATA_DIR: dir,
    DIOSC_OWNER_PASSWORD: 'first password',
    DIOSC_LOG_LEVEL: 'silent',
    ...extra,
  };
}
