import type { DioscContext } from '../context.js';
import type { HubServices } from './hub-services.js';

/**
 * The hub of an app, for code outside its routes (the CLI, the start banner, the assistants file):
 * the context holds it only once the hub plugin is registered, and reaching it before is a bug of
 * the caller, said so, not a `TypeError` on `undefined`.
 */
export function hubServicesOf(diosc: DioscContext): HubServices {
  if (!diosc.hub) throw new Error('The hub plugin is not registered.');
  return diosc.hub.services;
}
