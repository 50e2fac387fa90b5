import { createAnthropic } from '@ai-sdk/anthropic';
import { baseUrlString, checkBaseUrl } from '../base-url.js';
import type { ProviderModel, ProviderModelOptions } from '../provider-model.js';

export const ANTHROPIC_DEFAULT_MODEL = 'claude-sonnet-4-5';
const ANTHROPIC_BASE_URL = 'https://api.anthropic.com/v1';

/**
 * Anthropic's Messages API. The base URL is always passed, so `ANTHROPIC_BASE_URL` in the process
 * environment cannot redirect the key somewhere the assistant's configuration does not say.
 */
export function createAnthropicModel(options: ProviderModelOptions): ProviderModel {
  const url = checkBaseUrl(options.baseUrl ?? ANTHROPIC_BASE_URL, 'The Anthropic base URL');
  const provider = createAnthropic({
    apiKey: options.apiKey,
    baseURL: baseUrlString(url),
    fetch: options.fetch,
  });
  const via = options.baseUrl === undefined ? '' : ` via ${url.host}`;
  return { model: provider.messages(options.id), label: `Anthropic ${options.id}${via}` };
}
