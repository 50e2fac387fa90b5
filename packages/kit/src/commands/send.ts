import { errorCode, errorText } from '../browser-calls/browser-call.js';
import { emit } from '../kit-context.js';
import { type Command, expectArgs, invalid, requireInit } from './command.js';

/**
 * `diosc('send', text)`: sends a message as the visitor, with the page's snapshot and registry.
 * Resolves `true` once the hub accepted it, `false` (after an `error` event) when it did not.
 */
export const send: Command = (kit, args) => {
  expectArgs(args, 1, "diosc('send', text)");
  const [text] = args;
  if (typeof text !== 'string' || text.trim() === '' || text.length > 16_000)
    throw invalid('text must be a non-empty string of at most 16,000 characters');
  const session = requireInit(kit);
  return session.send(text).then(
    () => true,
    (error: unknown) => {
      const failure = {
        code: errorCode(error),
        message: errorText(error),
      };
      console.error(`[diosc] send: ${failure.message}`);
      emit(kit, 'error', failure);
      return false;
    },
  );
};
