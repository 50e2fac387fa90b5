import type { HubServices } from './hub-services.js';
import type { TurnRunner } from './turns/turn-runner.js';

/**
 * The hub as its routes and commands see it, built once by its plugin: the services, and the
 * runner that takes a turn from the store to its next step. A command takes `(hub, visitor, input)`.
 */
export interface Hub {
  services: HubServices;
  runner: TurnRunner;
}
