import type { LanguageModelV3 } from '@ai-sdk/provider';

/** What each provider folder's factory takes: the key is already chosen (stored key or env). */
export interface ProviderModelOptions {
  id: string;
  apiKey?: string | undefined;
  baseUrl?: string | undefined;
  fetch?: typeof fetch | undefined;
}

/** A model and the name users see for it — never containing a key. */
export interface ProviderModel {
  model: LanguageModelV3;
  label: string;
}
