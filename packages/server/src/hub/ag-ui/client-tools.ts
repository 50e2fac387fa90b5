import type { AgUiRunBody, PageRegistry } from '@diosc/protocol';

const NO_PARAMETERS = { type: 'object', properties: {} };

/**
 * The tools an AG-UI front end declares become the page's intents: offered to the model as
 * `browser_<name>`, and a call becomes an interrupt the front end answers, exactly like the kit's
 * intents. They carry no approval of their own; a front end that wants one asks in its handler.
 */
export function registryOf(tools: AgUiRunBody['tools']): PageRegistry {
  return {
    tools: [],
    intents: (tools ?? []).map((tool) => ({
      name: tool.name,
      description: tool.description,
      schema: tool.parameters ?? NO_PARAMETERS,
    })),
  };
}
