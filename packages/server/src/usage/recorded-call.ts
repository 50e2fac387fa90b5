import { DioscError } from '@diosc/protocol';
import type { CallerContext } from '../account/caller.js';
import type { CoreResult } from '../account/core.js';
import type { DioscContext } from '../context.js';
import { collectionOf, requestIdOf, toolOf, type UsageEntry } from './usage-log.js';

/**
 * Runs one call through the account core and records it, whatever the outcome (`ok`, `replayed`,
 * or the refusal's code), in the usage log. The owner API's transports share it; `/mcp` records
 * through its batch with the same extractors.
 */
export async function executeRecorded(
  ctx: DioscContext,
  transport: Extract<UsageEntry['transport'], 'owner' | 'browser'>,
  tool: string,
  input: unknown,
  caller: CallerContext,
): Promise<CoreResult> {
  const started = ctx.clock.now();
  let outcome = 'ok';
  try {
    const result = await ctx.core.execute(tool, input, caller);
    if (result.replayed) outcome = 'replayed';
    return result;
  } catch (error) {
    outcome = DioscError.isInstance(error) ? error.code : 'internal';
    throw error;
  } finally {
    await ctx.usage.record({
      accountId: caller.accountId,
      connectionId: caller.connectionId ?? null,
      transport,
      requestId: requestIdOf(input),
      tool: toolOf(tool),
      collection: collectionOf(input),
      outcome,
      durationMs: ctx.clock.now() - started,
    });
  }
}
