import type { LanguageModelV3 } from '@ai-sdk/provider';
import { DioscError } from '@diosc/protocol';
import { ANTHROPIC_DEFAULT_MODEL, createAnthropicModel } from './anthropic/anthropic-model.js';
import type { ModelProviderName, ModelSpec } from './model-spec.js';
import { createOpenAIModel, OPENAI_DEFAULT_MODEL } from './openai/openai-model.js';
import { createOpenAICompatibleModel } from './openai-compatible/openai-compatible-model.js';
import { createDemoModel, DEMO_MODEL_ID, DEMO_MODEL_LABEL } from './scripted/demo-script.js';

export const OLLAMA_DEFAULT_MODEL = 'llama3.2';

export interface ResolveModelOptions {
  /** The server's environment (injected, so tests never touch `process.env`). */
  env: NodeJS.ProcessEnv | Record<string, string | undefined>;
  /** The assistant's stored provider key, already decrypted; wins over the environment. */
  apiKey?: string | undefined;
  /** Scripted models registered by tests, by id (`{ provider: 'scripted', id }`). */
  scripted?: Record<string, LanguageModelV3> | undefined;
  fetch?: typeof fetch | undefined;
}

export interface ResolvedModel {
  model: LanguageModelV3;
  /** What users see, e.g. `OpenAI gpt-4o-mini` or `scripted demo model (not an AI)`. Never a key. */
  label: string;
  scripted: boolean;
  /** The provider actually chosen (`auto` resolved). */
  provider: Exclude<ModelProviderName, 'auto'>;
}

/**
 * The language model for an assistant's model spec. Throws `model_not_configured` with a plain message
 * that names the setting to fix (never its value) when a key or URL is missing or malformed.
 *
 * @example
 * const { model, label } = resolveModel({ provider: 'openai', id: 'gpt-4o-mini' }, { env: process.env });
 */
export function resolveModel(spec: ModelSpec, options: ResolveModelOptions): ResolvedModel {
  const { fetch } = options;
  switch (spec.provider) {
    case 'auto':
      return resolveAuto(options);
    case 'scripted':
      return resolveScripted(spec.id, options.scripted);
    case 'openai': {
      const apiKey = pickKey(options, spec.baseUrl, 'OPENAI_API_KEY', 'OpenAI');
      const made = createOpenAIModel({ id: checkModelId(spec.id), apiKey, baseUrl: spec.baseUrl, fetch });
      return { ...made, scripted: false, provider: 'openai' };
    }
    case 'anthropic': {
      const apiKey = pickKey(options, spec.baseUrl, 'ANTHROPIC_API_KEY', 'Anthropic');
      const made = createAnthropicModel({ id: checkModelId(spec.id), apiKey, baseUrl: spec.baseUrl, fetch });
      return { ...made, scripted: false, provider: 'anthropic' };
    }
    case 'openai-compatible': {
      requireCompatibleBaseUrl(spec);
      // Only the assistant's own key: OPENAI_API_KEY is never sent to a server that is not OpenAI.
      const apiKey = options.apiKey?.trim() || undefined;
      const made = createOpenAICompatibleModel({
        id: checkModelId(spec.id),
        apiKey,
        baseUrl: spec.baseUrl,
        fetch,
      });
      return { ...made, scripted: false, provider: 'openai-compatible' };
    }
    default:
      throw new DioscError('model_not_configured', `Unknown model provider ${quote(String(spec.provider))}.`);
  }
}

/** An openai-compatible model has no server of its own to default to: its base URL must be given. */
export function requireCompatibleBaseUrl(spec: ModelSpec): asserts spec is ModelSpec & { baseUrl: string } {
  if (!spec.baseUrl?.trim())
    throw new DioscError(
      'model_not_configured',
      'An openai-compatible model needs a base URL, e.g. http://127.0.0.1:11434/v1 for Ollama.',
    );
}

/** The first provider the environment configures, else the scripted demo model. */
function resolveAuto(options: ResolveModelOptions): ResolvedModel {
  const { env, fetch } = options;
  // The stored key is not used here: nothing says which provider it belongs to, and sending it to
  // the wrong one would hand it to a third party.
  const anthropicKey = env.ANTHROPIC_API_KEY?.trim();
  if (anthropicKey) {
    const made = createAnthropicModel({ id: ANTHROPIC_DEFAULT_MODEL, apiKey: anthropicKey, fetch });
    return { ...made, scripted: false, provider: 'anthropic' };
  }
  const openaiKey = env.OPENAI_API_KEY?.trim();
  if (openaiKey) {
    const made = createOpenAIModel({ id: OPENAI_DEFAULT_MODEL, apiKey: openaiKey, fetch });
    return { ...made, scripted: false, provider: 'openai' };
  }
  const ollama = env.DIOSC_OLLAMA_URL?.trim();
  if (ollama) {
    const id = checkModelId(env.DIOSC_OLLAMA_MODEL?.trim() || OLLAMA_DEFAULT_MODEL, 'DIOSC_OLLAMA_MODEL');
    const made = createOpenAICompatibleModel({ id, baseUrl: ollamaBaseUrl(ollama), server: 'Ollama', fetch });
    return { ...made, scripted: false, provider: 'openai-compatible' };
  }
  return resolveScripted(DEMO_MODEL_ID, options.scripted);
}

export function resolveScripted(
  id: string,
  registered: Record<string, LanguageModelV3> | undefined,
): ResolvedModel {
  const model = registered && Object.hasOwn(registered, id) ? registered[id] : undefined;
  if (model)
    return { model, label: `scripted model ${id} (not an AI)`, scripted: true, provider: 'scripted' };
  if (id === DEMO_MODEL_ID || id === '') {
    return { model: createDemoModel(), label: DEMO_MODEL_LABEL, scripted: true, provider: 'scripted' };
  }
  const known = [DEMO_MODEL_ID, ...Object.keys(registered ?? {})].slice(0, 10).map(quote).join(', ');
  throw new DioscError(
    'model_not_configured',
    `No scripted model named ${quote(id)} is registered; this server has ${known}.`,
  );
}

/**
 * The stored key, else the environment's. The environment's key is only ever sent to the
 * provider's own API: an assistant with a custom base URL (a proxy, a gateway) must store its own,
 * so editing an assistant's URL can never forward the server's key somewhere else.
 */
function pickKey(
  options: ResolveModelOptions,
  baseUrl: string | undefined,
  variable: string,
  provider: string,
) {
  const stored = options.apiKey?.trim();
  if (stored) return stored;
  if (baseUrl !== undefined) {
    throw new DioscError(
      'model_not_configured',
      `An ${provider} model with a custom base URL needs a key stored on the assistant; ${variable} is only sent to ${provider} itself.`,
    );
  }
  const key = options.env[variable]?.trim();
  if (key) return key;
  throw new DioscError(
    'model_not_configured',
    `No ${provider} API key: set ${variable} in the server environment or store a key on the assistant.`,
  );
}

/** `DIOSC_OLLAMA_URL` may be Ollama's plain address (`http://127.0.0.1:11434`); its OpenAI API is at /v1. */
function ollamaBaseUrl(raw: string): string {
  try {
    const url = new URL(raw);
    if (url.pathname === '/' || url.pathname === '') url.pathname = '/v1';
    return url.href;
  } catch {
    return raw; // checkBaseUrl reports it, naming the setting
  }
}

/**
 * A model id is a plain token. Something shaped like a key is refused without being echoed, so a
 * key pasted into the wrong field never reaches a label or a log.
 */
export function checkModelId(id: string, setting = "The assistant's model id"): string {
  const trimmed = typeof id === 'string' ? id.trim() : '';
  if (/^(?:sk-|sk_|key-)/i.test(trimmed)) {
    throw new DioscError(
      'model_not_configured',
      `${setting} looks like an API key; give the model's name instead.`,
    );
  }
  if (!/^[\x21-\x7e]{1,200}$/.test(trimmed)) {
    throw new DioscError('model_not_configured', `${setting} is missing or is not a plain model name.`);
  }
  return trimmed;
}

function quote(text: string): string {
  return JSON.stringify(text.slice(0, 100));
}
