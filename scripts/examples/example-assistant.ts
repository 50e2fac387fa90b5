import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';

/** The model keys that make `provider: auto` pick a real model (see docs/hub.md). */
const REAL_MODEL_SETTINGS = ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'DIOSC_OLLAMA_URL'];

export function hasRealModel(env: Record<string, string | undefined>): boolean {
  return REAL_MODEL_SETTINGS.some((name) => Boolean(env[name]?.trim()));
}

/**
 * The example's assistant from its `assistant.yaml` (the file an operator would keep for
 * DIOSC_ASSISTANTS), for the origin the example is served on. Without a model key it runs the
 * example's scripted model, which says plainly that it is scripted; with one, the real model.
 */
export async function exampleAssistantInput(
  file: string,
  options: { origin: string; scriptedModelId: string; env: Record<string, string | undefined> },
): Promise<Record<string, unknown>> {
  const parsed = parse(await readFile(file, 'utf8')) as { assistants?: Record<string, unknown>[] };
  const assistant = parsed.assistants?.[0];
  if (!assistant) throw new Error(`${file} defines no assistant`);
  return {
    ...assistant,
    allowedOrigins: [options.origin],
    model: hasRealModel(options.env)
      ? (assistant.model ?? { provider: 'auto' })
      : { provider: 'scripted', id: options.scriptedModelId },
  };
}
