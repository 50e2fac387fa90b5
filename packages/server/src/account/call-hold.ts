import type { FunctionName } from '@diosc/protocol';
import type { CallerContext } from './caller-context.js';

/**
 * A seam for tests, given to the core at construction (`buildApp({ holdCall })`): awaited once a
 * call has passed its authority checks and been admitted, right before its work runs. A test holds
 * a call there to act while it is in flight (disconnect a source, sign out, change an item) and
 * then lets it go on. Production passes nothing.
 *
 * @example
 * const gate = createCallGate(); // @diosc/server/testing
 * const server = await startTestServer({ app: { holdCall: gate.hold } });
 * const held = gate.next({ channel: 'browser', name: 'item_write' });
 */
export type CallHold = (call: { name: FunctionName; caller: CallerContext }) => void | Promise<void>;
