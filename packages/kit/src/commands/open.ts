import { type Command, expectArgs, requireInit } from './command.js';

/** `diosc('open')`: opens the conversation panel. */
export const open: Command = (kit, args) => {
  expectArgs(args, 0, "diosc('open')");
  requireInit(kit);
  kit.open.set(true);
};

/** `diosc('close')`: closes the panel (the launcher stays). */
export const close: Command = (kit, args) => {
  expectArgs(args, 0, "diosc('close')");
  requireInit(kit);
  kit.open.set(false);
};
