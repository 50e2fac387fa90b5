import type { ConsensusView } from '../types.js';
import { type Command, expectArgs, invalid } from './command.js';

/** `diosc('consensusView', tool, view | null)`: restyles the dialog's detail body for one tool. */
export const consensusView: Command = (kit, args) => {
  expectArgs(args, 2, "diosc('consensusView', toolName, (detail) => Node | string)");
  const [name, view] = args;
  if (typeof name !== 'string' || name === '') throw invalid('the first argument is the tool or intent name');
  if (view === null) kit.views.delete(name);
  else if (typeof view === 'function') kit.views.set(name, view as ConsensusView);
  else throw invalid(`"${name}": the view must be a function (detail) => Node | string, or null`);
};
