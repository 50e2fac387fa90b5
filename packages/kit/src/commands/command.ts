import { LocalError } from '@diosc/protocol';
import type { KitContext } from '../kit-context.js';

/** One `diosc('<name>', …args)` command. Throws `invalid_command` for bad arguments. */
export type Command = (kit: KitContext, args: readonly unknown[]) => unknown;

export function invalid(message: string): LocalError {
  return new LocalError('invalid_command', message);
}

export function expectArgs(args: readonly unknown[], max: number, usage: string): void {
  if (args.length > max)
    throw invalid(`takes ${max === 0 ? 'no arguments' : `at most ${max} argument(s)`}: ${usage}`);
}

export function requireInit(kit: KitContext): NonNullable<KitContext['session']> {
  if (!kit.session)
    throw invalid("the kit is not started: call diosc('init', { hubUrl, publishableKey }) first");
  return kit.session;
}
