// Servers under test run in child processes: their CPU and heap are theirs alone, and the load
// generator (this process) does not share their event loop.
import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';

export const root = resolve(import.meta.dirname, '../..');

export interface Child<T> {
  info: T;
  process: ChildProcess;
  /** Sends an IPC request and resolves with the next message back. */
  ask<R>(message: object): Promise<R>;
  stop(): Promise<void>;
}

/**
 * Starts `script` under tsx (with --expose-gc and an IPC channel) and reads its first stdout line.
 * BENCH_PROFILE=<dir> writes each child's CPU profile there when it exits (to see where time goes).
 */
export async function startChild<T>(script: string, env: Record<string, string> = {}): Promise<Child<T>> {
  const profile = process.env.BENCH_PROFILE
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`]
    : [];
  const child = spawn(process.execPath, [...profile, '--expose-gc', '--import', 'tsx', script], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    env: { ...process.env, ...env },
  });
  const line = await new Promise<string>((resolveLine, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolveLine);
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  return {
    info: JSON.parse(line) as T,
    process: child,
    ask<R>(message: object) {
      return new Promise<R>((resolveAnswer, reject) => {
        child.once('message', (answer: { type?: string; message?: string }) => {
          if (answer.type === 'error') reject(new Error(answer.message));
          else resolveAnswer(answer as R);
        });
        child.send(message);
      });
    },
    stop() {
      if (child.exitCode !== null) return Promise.resolve();
      return new Promise<void>((resolveExit) => {
        child.once('exit', () => resolveExit());
        child.kill('SIGTERM');
      });
    },
  };
}
