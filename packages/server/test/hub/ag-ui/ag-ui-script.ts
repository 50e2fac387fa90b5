import type { Script, ScriptedCall } from '../../../src/hub/model/scripted/scripted-model.js';

export const write = (title: string) => ({
  collection: 'notes',
  item: 'plan',
  requestId: `req-${title.replaceAll(' ', '-')}`,
  ifNoneMatch: '*',
  content: { title, body: 'Ship the hub.', contentType: 'text/plain' },
});

/** The newest user message's text, and the tool results the model has read since it. */
export function readTurn(call: ScriptedCall): { text: string; results: string[] } {
  const results: string[] = [];
  for (let index = call.prompt.length - 1; index >= 0; index--) {
    const message = call.prompt[index]!;
    if (message.role === 'tool') results.unshift(JSON.stringify(message.content));
    if (message.role === 'user') {
      const text = message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
      return { text, results };
    }
  }
  return { text: '', results };
}

/**
 * The assistant of these suites: "list" runs a server tool, "color" calls the front end's client
 * tool, "write <title>" a server tool behind Consensus, "wait" holds the step until `release()`;
 * anything else is answered with text. After a tool result it says what it read.
 */
export function agUiScript() {
  let release: () => void = () => {};
  let held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const script: Script = async (call) => {
    const { text, results } = readTurn(call);
    if (results.length > 0) return { text: `Done after ${results.length} result(s).` };
    if (text.startsWith('list'))
      return { toolCalls: [{ toolName: 'items_list', input: { collection: 'notes' } }] };
    if (text.startsWith('color'))
      return { toolCalls: [{ toolName: 'browser_pick_color', input: { palette: 'warm' } }] };
    if (text.startsWith('write '))
      return { toolCalls: [{ toolName: 'item_write', input: write(text.slice(6)) }] };
    if (text.startsWith('wait')) {
      await held;
      return { text: 'Waited long enough to say this in full.' };
    }
    return { text: `You said: ${text}` };
  };
  return {
    script,
    release: () => release(),
    rearm: () => {
      held = new Promise<void>((resolve) => {
        release = resolve;
      });
    },
  };
}

export const AG_UI_ASSISTANT = {
  serverTools: {
    account: { grant: [{ collection: 'notes', functions: ['items_list', 'item_write'] }] },
    consensus: { item_write: 'high' },
  },
};
