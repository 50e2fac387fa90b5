import type { HubServices } from './hub-services.js';

/**
 * The turn runner as the hub's commands see it (turns/turn-runner.ts implements it): a turn that
 * can go on is handed to it, and a cancelled one's model call is stopped.
 */
export interface HubRunner {
  /** This runner's name as a lease holder. */
  readonly instance: string;
  /** How long a lease it is handed lasts before it must renew it. */
  readonly leaseMs: number;
  /** `leased`: the caller has just handed this runner the turn's lease in the store. */
  schedule(turnId: string, how?: { leased: boolean }): void;
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
