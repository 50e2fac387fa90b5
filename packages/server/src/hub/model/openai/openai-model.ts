import { createOpenAI } from '@ai-sdk/openai';
import { baseUrlString, checkBaseUrl } from '../base-url.js';
import type { ProviderModel, ProviderModelOptions } from '../provider-model.js';

export const OPENAI_DEFAULT_MODEL = 'gpt-4o-mini';
const OPENAI_BASE_URL = 'https://api.openai.com/v1';

/**
 * OpenAI through the Chat Completions API (`openai.chat(id)`), not the provider's default Responses
 * API: the hub keeps the whole conversation itself, and Chat Completions is stateless (nothing is
 * stored at OpenAI by default) and the wire every OpenAI-compatible gateway speaks too.
 * The base URL is always passed, so `OPENAI_BASE_URL` in the process environment cannot redirect it.
 */
export function createOpenAIModel(options: ProviderModelOptions): ProviderModel {
  const url = checkBaseUrl(options.baseUrl ?? OPENAI_BASE_URL, 'The OpenAI base URL');
  const provider = createOpenAI({
    apiKey: options.apiKey,
    baseURL: baseUrlString(url),
    fetch: options.fetch,
  });
  const via = options.baseUrl === undefined ? '' : ` via ${url.host}`;
  return { model: provider.chat(options.id), label: `OpenAI ${options.id}${via}` };
}
