import type { HubServices } from './hub-services.js';

/**
 * The turn runner as the hub's commands see it (turns/turn-runner.ts implements it): a turn that
 * can go on is handed to it, and a cancelled one's model call is stopped.
 */
export interface HubRunner {
  schedule(turnId: string): void;
  abort(turnId: string): void;
  /** Turns running in this process now. */
  readonly activeCount: number;
}

/**
 * The hub as its routes and commands see it, built once by its plugin: the services, and the
 * runner that takes a turn from the store to its next step. A command takes `(hub, visitor, input)`.
 */
export interface Hub {
  services: HubServices;
  runner: HubRunner;
}
