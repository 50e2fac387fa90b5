import type { LanguageModelV3 } from '@ai-sdk/provider';
import { DioscError } from '@diosc/protocol';
import { checkBaseUrl } from './base-url.js';
import type { ModelSpec } from './model-spec.js';
import { checkModelId, requireCompatibleBaseUrl, resolveScripted } from './resolve-model.js';

/**
 * What can be known about an assistant's model when it is saved, without a key or a network call: a
 * scripted id this server has, a plain model name, a well-formed base URL (and one at all for
 * `openai-compatible`). Refused as `invalid_input`, so a model no turn could ever run is never
 * stored; keys are not required here, since the environment may supply them later.
 */
export function checkModelChoice(
  spec: ModelSpec,
  scripted: Record<string, LanguageModelV3> | undefined,
): void {
  try {
    if (spec.provider === 'auto') return;
    if (spec.provider === 'scripted') {
      resolveScripted(spec.id, scripted);
      return;
    }
    checkModelId(spec.id);
    if (spec.baseUrl !== undefined) checkBaseUrl(spec.baseUrl, "The assistant's base URL");
    else if (spec.provider === 'openai-compatible') requireCompatibleBaseUrl(spec);
  } catch (error) {
    if (DioscError.isInstance(error) && error.code === 'model_not_configured')
      throw new DioscError('invalid_input', error.message);
    throw error;
  }
}
