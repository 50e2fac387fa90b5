import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { CrashChildArgs } from './crash-child.js';

const CHILD = fileURLToPath(new URL('./crash-child.ts', import.meta.url));
/** A bound on waiting for the child's lines, so a broken child fails the test instead of hanging it. */
const LINE_WAIT_MS = 60_000;

export interface CrashChild {
  url: string;
  /** Resolves when the child announced it is at its crash point, with the point's name. */
  held(): Promise<string>;
  /** SIGKILLs the child and resolves with how it ended. */
  kill(): Promise<NodeJS.Signals | null>;
  stderr(): string;
}

/** Starts the crash child over the parent's store and waits until it serves. */
export async function startCrashChild(args: CrashChildArgs): Promise<CrashChild> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', CHILD, JSON.stringify(args)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<NodeJS.Signals | null>((resolve) =>
    child.on('close', (_code, signal) => resolve(signal)),
  );
  const lines: string[] = [];
  const waiters: (() => void)[] = [];
  let buffer = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    const parts = buffer.split('\n');
    buffer = parts.pop() ?? '';
    lines.push(...parts);
    for (const wake of waiters.splice(0)) wake();
  });
  const line = async (prefix: string): Promise<string> => {
    const deadline = Date.now() + LINE_WAIT_MS;
    for (;;) {
      const found = lines.find((each) => each.startsWith(prefix));
      if (found) return found.slice(prefix.length);
      if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline)
        throw new Error(`the crash child never printed "${prefix}": ${stderr}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 250);
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  };
  const url = await line('READY ');
  return {
    url,
    held: () => line('HOLD '),
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      return exited;
    },
    stderr: () => stderr,
  };
}
