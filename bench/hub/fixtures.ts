// What both sides of every hub benchmark exchange, so ours and the baselines carry the same payloads.
import type { Script, ScriptedCall } from '@diosc/server/scripted';

/** The origin of the page that embeds the widget (any exact origin the assistant allows). */
export const PAGE_ORIGIN = 'http://shop.localhost:4173';

/** The page tool every round trip runs: the kit's built-in `read_page`, no arguments. */
export const TOOL = 'read_page';
export const REGISTRY = { tools: [TOOL], intents: [] };

/** A ~150-byte `read_page` result, the same every turn (issue 11: "a ~150-byte result"). */
export const RESULT = {
  url: 'https://shop.example/products',
  title: 'Products',
  content: 'Teas: Sencha 4.50 EUR, Assam 3.90 EUR, Darjeeling 6.20 EUR, Rooibos 3.10 EUR.',
};
export const RESULT_BYTES = Buffer.byteLength(JSON.stringify(RESULT));

export const REPLY = 'The page lists four teas; Rooibos is the cheapest at 3.10 EUR.';
export const userText = (turn: number) => `Turn ${turn}: what is on the page?`;

/** Tool results after the newest user message: how many round trips the current turn has done. */
function resultsThisTurn(call: ScriptedCall): number {
  let results = 0;
  for (let index = call.prompt.length - 1; index >= 0; index--) {
    const role = call.prompt[index]!.role;
    if (role === 'user') break;
    if (role === 'tool') results++;
  }
  return results;
}

/**
 * A model that answers instantly: it calls `read_page` until the current turn has `calls` results,
 * then replies with text. `calls = 1` is one browser round trip per turn.
 */
export function roundTripScript(calls: number): Script {
  return (call) =>
    resultsThisTurn(call) < calls ? { toolCalls: [{ toolName: TOOL, input: {} }] } : { text: REPLY };
}
