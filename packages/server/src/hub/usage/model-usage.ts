import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import type { Database } from '../../store/schema.js';

/** The model token counts of every step; this module owns `hub_model_usage`. */
export function createModelUsage(db: Kysely<Database>, clock: Clock) {
  return {
    async record(step: {
      assistantId: string;
      conversationId: string;
      turnId: string;
      inputTokens: number;
      outputTokens: number;
    }): Promise<void> {
      await db
        .insertInto('hub_model_usage')
        .values({
          id: randomUUID(),
          assistant_id: step.assistantId,
          conversation_id: step.conversationId,
          turn_id: step.turnId,
          input_tokens: Math.max(0, Math.round(step.inputTokens)),
          output_tokens: Math.max(0, Math.round(step.outputTokens)),
          created_at: clock.now(),
        })
        .execute();
    },
  };
}

export type ModelUsage = ReturnType<typeof createModelUsage>;
