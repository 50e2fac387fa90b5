// What the mixed load runs against, set up on a built app: the owner's `notes` collection (the demo
// data), an HTTP MCP connection granted it, and an assistant on the scripted load model whose
// account grant writes to it under Consensus. Used by the bench's server process and by the smoke
// test in npm test, so both run the same thing.
import type { Script, ScriptedCall } from '@diosc/server/testing';
import { createAssistant } from '@diosc/server/testing';
import type { FastifyInstance } from 'fastify';

export const PAGE_ORIGIN = 'http://shop.localhost:4173';
export const COLLECTION = 'notes';

export interface LoadTarget {
  url: string;
  publishableKey: string;
  mcpToken: string;
  /** Receipt namespaces of the three writers. */
  actors: { mcp: string; assistant: string; owner: string };
  ownerEmail: string;
  ownerPassword: string;
}

/** The newest user message's words and whether this turn already has a tool result. */
function readTurn(call: ScriptedCall): { words: string[]; answered: boolean } {
  let answered = false;
  for (let index = call.prompt.length - 1; index >= 0; index--) {
    const message = call.prompt[index]!;
    if (message.role === 'tool') answered = true;
    if (message.role === 'user') {
      const text = message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
      return { words: text.split(' '), answered };
    }
  }
  return { words: [], answered };
}

/**
 * The scripted model of the load: `chat …` is answered at once, `read …` asks the page for
 * `read_page` first, `write <item> <requestId>` asks for `item_write` (held for Consensus).
 */
export const loadScript: Script = (call) => {
  const { words, answered } = readTurn(call);
  if (answered) return { text: 'Done: the page and the tools answered.' };
  if (words[0] === 'read') return { toolCalls: [{ toolName: 'read_page', input: {} }] };
  if (words[0] === 'write') {
    return {
      toolCalls: [
        {
          toolName: 'item_write',
          input: {
            collection: COLLECTION,
            item: words[1]!,
            requestId: words[2]!,
            ifNoneMatch: '*',
            content: {
              title: `Approved ${words[1]}`,
              body: 'Written after the visitor approved.',
              contentType: 'text/plain',
            },
          },
        },
      ],
    };
  }
  return { text: 'Hello! The shop is open.' };
};

export async function prepareLoadApp(
  app: FastifyInstance,
  accountId: string,
  owner: { email: string; password: string },
  url: string,
): Promise<LoadTarget> {
  const grant = [{ collection: COLLECTION, functions: ['items_list', 'item_read', 'item_write'] as const }];
  const { connection, token } = await app.diosc.connections.createMcp(accountId, {
    displayName: 'load: MCP client',
    grant: grant.map((entry) => ({ ...entry, functions: [...entry.functions] })),
    provenance: 'benchmark',
  });
  const assistant = await createAssistant(app.diosc, accountId, {
    name: 'Load assistant',
    model: { provider: 'scripted', id: 'load' },
    allowedOrigins: [PAGE_ORIGIN],
    files: { enabled: true, allowedTypes: ['image/png'], maxFileBytes: 1024 * 1024 },
    serverTools: {
      account: { grant: grant.map((entry) => ({ ...entry, functions: [...entry.functions] })) },
      consensus: { item_write: 'medium' },
    },
    limits: { messagesPerMinute: 1_000, interruptTimeoutMs: 3_600_000, consensusTimeoutMs: 86_400_000 },
  });
  return {
    url,
    publishableKey: assistant.publishableKey,
    mcpToken: token,
    actors: {
      mcp: `connection:${connection.id}`,
      assistant: `connection:${assistant.config.serverTools.account!.connectionId}`,
      owner: `owner:${accountId}`,
    },
    ownerEmail: owner.email,
    ownerPassword: owner.password,
  };
}
