/**
 * Which model an assistant runs on. `auto` picks the first provider the server environment has a
 * key or URL for and falls back to the scripted demo model, so `npm start` works with no key.
 * `scripted` is a test double or the demo — never an AI, and labelled so wherever a user sees it.
 */
export type ModelProviderName = 'auto' | 'scripted' | 'openai' | 'anthropic' | 'openai-compatible';

export interface ModelSpec {
  provider: ModelProviderName;
  /** The provider's model id (`gpt-4o-mini`, `claude-sonnet-4-5`, `llama3.2`); ignored by `auto`. */
  id: string;
  /** Required for `openai-compatible`; optional for `openai` / `anthropic` (a proxy or gateway). */
  baseUrl?: string;
}
