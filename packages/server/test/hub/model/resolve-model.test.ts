import { DioscError } from '@diosc/protocol';
import { describe, expect, it } from 'vitest';
import type { ModelSpec } from '../../../src/hub/model/model-spec.js';
import { resolveModel } from '../../../src/hub/model/resolve-model.js';
import { createScriptedModel } from '../../../src/hub/model/scripted/scripted-model.js';

const KEY = 'sk-test-5f1d2e3c4b5a69788796a5b4c3d2e1f0';

function refusal(spec: ModelSpec, options: Parameters<typeof resolveModel>[1]): DioscError {
  try {
    resolveModel(spec, options);
  } catch (error) {
    if (DioscError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('resolveModel', () => {
  it('builds OpenAI on the Chat Completions API with the env key, labelled by model', () => {
    const resolved = resolveModel(
      { provider: 'openai', id: 'gpt-4o-mini' },
      { env: { OPENAI_API_KEY: KEY } },
    );
    expect(resolved).toMatchObject({ label: 'OpenAI gpt-4o-mini', scripted: false, provider: 'openai' });
    expect(resolved.model.provider).toBe('openai.chat');
    expect(resolved.model.modelId).toBe('gpt-4o-mini');
  });

  it('builds Anthropic with the env key', () => {
    const resolved = resolveModel(
      { provider: 'anthropic', id: 'claude-sonnet-4-5' },
      { env: { ANTHROPIC_API_KEY: KEY } },
    );
    expect(resolved).toMatchObject({
      label: 'Anthropic claude-sonnet-4-5',
      scripted: false,
      provider: 'anthropic',
    });
    expect(resolved.model.provider).toBe('anthropic.messages');
  });

  it('builds an openai-compatible model from its base URL, with or without a stored key', () => {
    const resolved = resolveModel(
      { provider: 'openai-compatible', id: 'llama3.2', baseUrl: 'http://127.0.0.1:11434/v1' },
      { env: {} },
    );
    expect(resolved).toMatchObject({
      label: 'llama3.2 on OpenAI-compatible server at 127.0.0.1:11434',
      provider: 'openai-compatible',
    });
    expect(resolved.model.provider).toBe('openai-compatible.chat');
  });

  it('refuses an explicit provider without a key, naming the setting and not a value', () => {
    const openai = refusal({ provider: 'openai', id: 'gpt-4o-mini' }, { env: { ANTHROPIC_API_KEY: KEY } });
    expect(openai.code).toBe('model_not_configured');
    expect(openai.message).toBe(
      'No OpenAI API key: set OPENAI_API_KEY in the server environment or store a key on the assistant.',
    );
    const anthropic = refusal(
      { provider: 'anthropic', id: 'claude-sonnet-4-5' },
      { env: { OPENAI_API_KEY: KEY } },
    );
    expect(anthropic.message).toContain('ANTHROPIC_API_KEY');
    expect(`${openai.message}${anthropic.message}`).not.toContain(KEY);
    expect(refusal({ provider: 'openai-compatible', id: 'llama3.2' }, { env: {} }).message).toMatch(
      /needs a base URL/,
    );
  });

  it('never forwards an environment key to a custom base URL', () => {
    const proxied = refusal(
      { provider: 'openai', id: 'gpt-4o-mini', baseUrl: 'https://proxy.example/v1' },
      { env: { OPENAI_API_KEY: KEY } },
    );
    expect(proxied.message).toBe(
      'An OpenAI model with a custom base URL needs a key stored on the assistant; OPENAI_API_KEY is only sent to OpenAI itself.',
    );
    const anthropic = refusal(
      { provider: 'anthropic', id: 'claude-sonnet-4-5', baseUrl: 'https://proxy.example/v1' },
      { env: { ANTHROPIC_API_KEY: KEY } },
    );
    expect(anthropic.message).toMatch(/ANTHROPIC_API_KEY is only sent to Anthropic itself/);
    const stored = resolveModel(
      { provider: 'openai', id: 'gpt-4o-mini', baseUrl: 'https://proxy.example/v1' },
      { env: {}, apiKey: KEY },
    );
    expect(stored.label).toBe('OpenAI gpt-4o-mini via proxy.example');
  });

  it('refuses a base URL with credentials, a non-http scheme, a malformed URL and key-shaped model ids, never echoing them', () => {
    const cases: [ModelSpec, RegExp][] = [
      [
        { provider: 'openai-compatible', id: 'llama3.2', baseUrl: `http://user:${KEY}@127.0.0.1:11434/v1` },
        /user name or password/,
      ],
      [
        { provider: 'openai-compatible', id: 'llama3.2', baseUrl: `file:///etc/${KEY}` },
        /http:\/\/ or https:\/\//,
      ],
      [{ provider: 'openai-compatible', id: 'llama3.2', baseUrl: `not a url ${KEY}` }, /not a valid URL/],
      [{ provider: 'openai', id: KEY }, /looks like an API key/],
      [{ provider: 'openai', id: 'gpt 4o\n' }, /not a plain model name/],
      [{ provider: 'openai', id: '' }, /missing/],
    ];
    for (const [spec, message] of cases) {
      const error = refusal(spec, { env: { OPENAI_API_KEY: 'sk-other' } });
      expect(error.code).toBe('model_not_configured');
      expect(error.message).toMatch(message);
      expect(error.message).not.toContain(KEY);
      expect(JSON.stringify(error.toWire())).not.toContain(KEY);
    }
  });

  it('lets the stored key win over the environment, and keeps keys out of labels and serialised results', () => {
    for (const spec of [
      { provider: 'openai', id: 'gpt-4o-mini' },
      { provider: 'anthropic', id: 'claude-sonnet-4-5' },
      { provider: 'openai-compatible', id: 'qwen2.5', baseUrl: 'https://gpu.internal.example/v1' },
    ] satisfies ModelSpec[]) {
      const resolved = resolveModel(spec, { env: {}, apiKey: KEY });
      expect(resolved.scripted).toBe(false);
      expect(resolved.label).not.toContain(KEY);
      expect(JSON.stringify(resolved)).not.toContain(KEY);
    }
  });

  it('auto: Anthropic first, then OpenAI, then Ollama from DIOSC_OLLAMA_URL, then the scripted demo', () => {
    const both = resolveModel(
      { provider: 'auto', id: '' },
      { env: { ANTHROPIC_API_KEY: KEY, OPENAI_API_KEY: KEY } },
    );
    expect(both).toMatchObject({ provider: 'anthropic', label: 'Anthropic claude-sonnet-4-5' });
    const openai = resolveModel(
      { provider: 'auto', id: '' },
      { env: { OPENAI_API_KEY: KEY, DIOSC_OLLAMA_URL: 'x' } },
    );
    expect(openai).toMatchObject({ provider: 'openai', label: 'OpenAI gpt-4o-mini' });
    const ollama = resolveModel(
      { provider: 'auto', id: '' },
      { env: { DIOSC_OLLAMA_URL: 'http://127.0.0.1:11434' } },
    );
    expect(ollama).toMatchObject({
      provider: 'openai-compatible',
      label: 'llama3.2 on Ollama at 127.0.0.1:11434',
    });
    expect(ollama.model.modelId).toBe('llama3.2');
    const chosen = resolveModel(
      { provider: 'auto', id: '' },
      { env: { DIOSC_OLLAMA_URL: 'http://10.0.0.5:11434/v1', DIOSC_OLLAMA_MODEL: 'qwen2.5:7b' } },
    );
    expect(chosen.model.modelId).toBe('qwen2.5:7b');
    const demo = resolveModel({ provider: 'auto', id: '' }, { env: { OPENAI_API_KEY: '  ' } });
    expect(demo).toMatchObject({
      provider: 'scripted',
      scripted: true,
      label: 'scripted demo model (not an AI)',
    });
    expect(demo.model.modelId).toBe('scripted-demo');
  });

  it('auto does not send a stored key to a provider it cannot attribute it to', () => {
    const resolved = resolveModel({ provider: 'auto', id: '' }, { env: {}, apiKey: KEY });
    expect(resolved.provider).toBe('scripted');
  });

  it('finds test-registered scripted models by id and refuses unknown ones', () => {
    const model = createScriptedModel([{ text: 'hi' }], { modelId: 'turn-test' });
    const resolved = resolveModel(
      { provider: 'scripted', id: 'turn-test' },
      { env: {}, scripted: { 'turn-test': model } },
    );
    expect(resolved).toEqual({
      model,
      label: 'scripted model turn-test (not an AI)',
      scripted: true,
      provider: 'scripted',
    });
    expect(resolveModel({ provider: 'scripted', id: 'scripted-demo' }, { env: {} }).label).toBe(
      'scripted demo model (not an AI)',
    );
    expect(refusal({ provider: 'scripted', id: 'toString' }, { env: {}, scripted: {} }).message).toBe(
      'No scripted model named "toString" is registered; this server has "scripted-demo".',
    );
    expect(refusal({ provider: 'gemini' as ModelSpec['provider'], id: 'x' }, { env: {} }).message).toBe(
      'Unknown model provider "gemini".',
    );
  });
});
