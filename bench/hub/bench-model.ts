// The scripted model every benchmark server runs, without the memory of the test double.
import type { LanguageModelV3 } from '@ai-sdk/provider';
import { createScriptedModel, type Script } from '@diosc/server/scripted';

/**
 * A scripted model that forgets each call once answered. The scripted model records every call's
 * prompt for tests to read; over thousands of turns that log alone is ~1.3 KB a turn (measured
 * with heap snapshots) and grows with the history — the test double's memory and work, not the
 * server's — so it is emptied after each call.
 */
export function benchModel(script: Script, modelId: string): LanguageModelV3 {
  const scripted = createScriptedModel(script, { modelId });
  return {
    ...scripted,
    async doStream(options) {
      try {
        return await scripted.doStream(options);
      } finally {
        scripted.calls.length = 0;
      }
    },
  };
}
