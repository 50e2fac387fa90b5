import { DioscError, type TestConnectionResult } from '@diosc/protocol';
import { APICallError, generateText } from 'ai';
import { createSecretRedactor } from '../outbound/secret-redactor.js';
import type { ModelSpec } from './model-spec.js';
import { type ResolveModelOptions, resolveModel } from './resolve-model.js';
import { safeProviderError } from './safe-provider-error.js';

const TEST_TIMEOUT_MS = 15_000;
const TEST_PROMPT = 'Reply with the single word OK.';

/**
 * One tiny model call (a short prompt, a few output tokens, no retries) to tell the owner whether
 * the model and key work. A scripted model is not called — it is not a provider, and a call would
 * use up a step of its script — so it answers ok with its label. A failure answers the provider's
 * error text made safe (`safe-provider-error.ts`), never an exception.
 */
export async function testModelConnection(
  spec: ModelSpec,
  options: ResolveModelOptions & { timeoutMs?: number },
): Promise<TestConnectionResult> {
  // The keys this call may send: the one given, or the environment's.
  const secrets = [options.apiKey, options.env.OPENAI_API_KEY, options.env.ANTHROPIC_API_KEY];
  const redactor = createSecretRedactor(secrets);
  try {
    const resolved = resolveModel(spec, options);
    if (resolved.scripted) return { ok: true, label: resolved.label, scripted: true };
    await generateText({
      model: resolved.model,
      prompt: TEST_PROMPT,
      maxOutputTokens: 16,
      maxRetries: 0,
      abortSignal: AbortSignal.timeout(options.timeoutMs ?? TEST_TIMEOUT_MS),
    });
    return { ok: true, label: resolved.label, scripted: false };
  } catch (error) {
    // Our own refusals (no key, a bad base URL) name the setting, never its value.
    if (error instanceof DioscError)
      return { ok: false, error: { code: error.code, message: redactor.text(error.message) } };
    const status = APICallError.isInstance(error) && error.statusCode ? ` (HTTP ${error.statusCode})` : '';
    return {
      ok: false,
      error: {
        code: 'model_failed',
        message: `${safeProviderError(redactor.error(error), secrets)}${status}`,
      },
    };
  }
}
