import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { baseUrlString, checkBaseUrl } from '../base-url.js';
import type { ProviderModel, ProviderModelOptions } from '../provider-model.js';

export interface OpenAICompatibleModelOptions extends ProviderModelOptions {
  baseUrl: string;
  /** Who serves it, for the label: `Ollama` for the `DIOSC_OLLAMA_URL` default. */
  server?: string;
}

/**
 * Any server that speaks OpenAI's Chat Completions wire — Ollama (`http://127.0.0.1:11434/v1`),
 * llama.cpp server, vLLM, LM Studio — by base URL. The key is optional (local servers have none)
 * and is sent as a Bearer token only when given. Streaming asks for usage
 * (`stream_options.include_usage`), which these servers accept.
 */
export function createOpenAICompatibleModel(options: OpenAICompatibleModelOptions): ProviderModel {
  const url = checkBaseUrl(options.baseUrl, 'The model base URL');
  const provider = createOpenAICompatible({
    name: 'openai-compatible',
    baseURL: baseUrlString(url),
    apiKey: options.apiKey,
    fetch: options.fetch,
    includeUsage: true,
  });
  const server = options.server ?? 'OpenAI-compatible server';
  return { model: provider.chatModel(options.id), label: `${options.id} on ${server} at ${url.host}` };
}
