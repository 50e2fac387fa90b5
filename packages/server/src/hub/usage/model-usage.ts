import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import type { Database } from '../../store/schema.js';
import { createWriteBatch } from '../../store/write-batch.js';

/** How long a step's token counts wait to be written with others, by default. */
export const MODEL_USAGE_FLUSH_MS = 50;
const MODEL_USAGE_BATCH_MAX_ROWS = 256;

/**
 * The model token counts of every step; this module owns `hub_model_usage`. They are the owner's
 * usage view and decide nothing, so they are written in batches (`store/write-batch.ts`) after
 * the step's transaction rather than in it: one insert per `flushMs` at any load instead of one per
 * step. A process killed within `flushMs` of a step loses that step's counts, never the step.
 * `usageOf` awaits `flush()` first, so a reader always sees every step recorded before it asked.
 */
export function createModelUsage(
  db: Kysely<Database>,
  clock: Clock,
  options: { onError: (error: unknown, rows: number) => void; flushMs?: number },
) {
  const batch = createWriteBatch<Database['hub_model_usage']>({
    async write(rows) {
      try {
        await db.insertInto('hub_model_usage').values(rows).execute();
      } catch {
        // One row whose assistant was deleted meanwhile (its rows cascade) fails the whole insert:
        // the others still go in, one at a time; the first error left stands for the batch.
        let failed: unknown;
        for (const row of rows) {
          await db
            .insertInto('hub_model_usage')
            .values(row)
            .execute()
            .catch((error: unknown) => {
              failed ??= error;
            });
        }
        if (failed !== undefined) throw failed;
      }
    },
    onError: options.onError,
    flushMs: options.flushMs ?? MODEL_USAGE_FLUSH_MS,
    maxRows: MODEL_USAGE_BATCH_MAX_ROWS,
  });
  return {
    record(step: {
      assistantId: string;
      conversationId: string;
      turnId: string;
      inputTokens: number;
      outputTokens: number;
    }): void {
      batch.add({
        id: randomUUID(),
        assistant_id: step.assistantId,
        conversation_id: step.conversationId,
        turn_id: step.turnId,
        input_tokens: Math.max(0, Math.round(step.inputTokens)),
        output_tokens: Math.max(0, Math.round(step.outputTokens)),
        created_at: clock.now(),
      });
    },
    flush: batch.flush,
  };
}

export type ModelUsage = ReturnType<typeof createModelUsage>;
