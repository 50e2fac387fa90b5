import { readFileSync } from 'node:fs';
import { DioscError } from '@diosc/protocol';
import { parse as parseYaml } from 'yaml';
import type { DioscContext } from '../../context.js';
import { parseAssistantInput } from '../assistants/assistant-schema.js';
import { hubServicesOf } from '../hub-services-of.js';
import { createAssistant, updateAssistant } from './assistant-admin.js';

const MAX_FILE_BYTES = 1024 * 1024;
const isYaml = (path: string) => /\.ya?ml$/i.test(path);

/** A JSON or YAML file (by extension), parsed with a size bound. */
export function readSpecFile(path: string): unknown {
  const text = readFileSync(path, 'utf8');
  if (Buffer.byteLength(text) > MAX_FILE_BYTES)
    throw new DioscError('invalid_input', 'The file is over 1 MiB.');
  try {
    return isYaml(path) ? parseYaml(text, { maxAliasCount: 50 }) : JSON.parse(text);
  } catch (error) {
    const first = (error as Error).message.split('\n')[0];
    throw new DioscError(
      'invalid_input',
      `The file is not valid ${isYaml(path) ? 'YAML' : 'JSON'}: ${first}`,
    );
  }
}

/**
 * Reads `DIOSC_ASSISTANTS` — a JSON or YAML file with `assistants: [...]` (or a bare list) that an
 * operator keeps in git. A file in git holds no secrets: provider keys come from the environment.
 */
export function readAssistantsFile(path: string): Record<string, unknown>[] {
  const parsed = readSpecFile(path);
  const list = Array.isArray(parsed) ? parsed : (parsed as { assistants?: unknown } | null)?.assistants;
  if (!Array.isArray(list))
    throw new DioscError('invalid_input', 'The assistants file needs a list under `assistants:`.');
  for (const [index, entry] of list.entries()) {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry))
      throw new DioscError('invalid_input', `Assistant ${index + 1} in the file is not an object.`);
    if ('secrets' in entry)
      throw new DioscError(
        'invalid_input',
        `Assistant ${index + 1}: secrets do not belong in a file kept in git; use the environment or \`diosc assistants update --provider-key-env\`.`,
      );
  }
  return list as Record<string, unknown>[];
}

/** Creates or updates (by name) every assistant of the file. */
export async function applyAssistantsFile(
  diosc: DioscContext,
  accountId: string,
  path: string,
): Promise<{ created: string[]; updated: string[] }> {
  const entries = readAssistantsFile(path);
  const current = new Map(
    (await hubServicesOf(diosc).assistants.list(accountId)).map((record) => [
      record.config.name,
      record.config,
    ]),
  );
  const existing = new Set(current.keys());
  // Every entry is checked before any is applied, so a typo in the fifth leaves the first four alone.
  for (const entry of entries) parseAssistantInput(entry, current.get(String(entry.name ?? '')));
  const created: string[] = [];
  const updated: string[] = [];
  for (const entry of entries) {
    const name = String(entry.name ?? '');
    if (existing.has(name)) {
      await updateAssistant(diosc, accountId, name, entry);
      updated.push(name);
    } else {
      await createAssistant(diosc, accountId, entry);
      created.push(name);
    }
  }
  return { created, updated };
}
