import type { CDPSession, Page } from 'playwright-core';
import { recordCdpEvents } from '../../support/cdp-events.js';

export interface ToolResponse {
  invocationId: string;
  status: 'Completed' | 'Canceled' | 'Error';
  output?: unknown;
  errorText?: string;
  exception?: { description?: string };
}

/** What the agent can read of a failure: Chromium puts a thrown error in `exception`, not `errorText`. */
export function failureText(response: ToolResponse): string {
  return `${response.errorText ?? ''} ${response.exception?.description ?? ''}`.trim();
}

/**
 * The browser's own agent side, driven through the DevTools `WebMCP` domain: what a built-in
 * assistant would see (tools added/removed) and do (invoke a tool, get the response).
 */
export async function attachAgent(page: Page) {
  const cdp: CDPSession = await page.context().newCDPSession(page);
  const events = recordCdpEvents(cdp, ['WebMCP.toolsAdded', 'WebMCP.toolsRemoved', 'WebMCP.toolResponded']);
  await cdp.send('WebMCP.enable' as never);
  const { frameTree } = (await cdp.send('Page.getFrameTree')) as { frameTree: { frame: { id: string } } };

  return {
    events,
    /** Names of the tools currently registered, from the added/removed events so far. */
    tools(): string[] {
      const names = new Set<string>();
      for (const event of events.seen) {
        const tools = (event.params.tools ?? []) as { name: string }[];
        for (const tool of tools) {
          if (event.name === 'WebMCP.toolsAdded') names.add(tool.name);
          if (event.name === 'WebMCP.toolsRemoved') names.delete(tool.name);
        }
      }
      return [...names].sort();
    },
    async invoke(toolName: string, input: unknown): Promise<string> {
      const { invocationId } = (await cdp.send(
        'WebMCP.invokeTool' as never,
        {
          frameId: frameTree.frame.id,
          toolName,
          input,
        } as never,
      )) as { invocationId: string };
      return invocationId;
    },
    responded(invocationId: string): Promise<ToolResponse> {
      return events.wait('WebMCP.toolResponded', (p) => p.invocationId === invocationId) as Promise<never>;
    },
    hasResponded(invocationId: string): boolean {
      return events.seen.some(
        (e) => e.name === 'WebMCP.toolResponded' && e.params.invocationId === invocationId,
      );
    },
    async close() {
      await cdp.detach().catch(() => undefined);
    },
  };
}

export type Agent = Awaited<ReturnType<typeof attachAgent>>;
