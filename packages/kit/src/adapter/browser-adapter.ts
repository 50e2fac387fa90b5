import {
  CLIENT_TOOL_NAME_PATTERN,
  type IntentMetadata,
  isObject,
  LocalError,
  PAGE_LIMITS,
  type PageSnapshot,
} from '@diosc/protocol';
import { toJsonValue } from '../browser-calls/json-value.js';
import type { BrowserAdapter, IntentDefinition } from '../types.js';

const NAME = new RegExp(CLIENT_TOOL_NAME_PATTERN);
const SEVERITIES = ['low', 'medium', 'high'];

const bad = (message: string) => new LocalError('invalid_command', message);
function checkIntent(intent: unknown, index: number, names: Set<string>): void {
  const where = `intents[${index}]`;
  if (!isObject(intent))
    throw bad(`${where} must be an object { name, description, schema, handler, approval? }.`);
  const { name, description, schema, handler, approval } = intent;
  if (typeof name !== 'string' || !NAME.test(name))
    throw bad(`${where}.name must match ${CLIENT_TOOL_NAME_PATTERN} (got ${JSON.stringify(name)}).`);
  if (names.has(name)) throw bad(`${where}.name "${name}" is used twice.`);
  names.add(name);
  if (
    typeof description !== 'string' ||
    description.trim() === '' ||
    description.length > PAGE_LIMITS.descriptionMaxChars
  )
    throw bad(`${where} ("${name}") needs a description of 1–${PAGE_LIMITS.descriptionMaxChars} characters.`);
  const json = toJsonValue(schema);
  if (!isObject(schema) || !json.ok) throw bad(`${where} ("${name}").schema must be a JSON Schema object.`);
  if (JSON.stringify(json.value).length > PAGE_LIMITS.schemaMaxBytes)
    throw bad(`${where} ("${name}").schema is over ${PAGE_LIMITS.schemaMaxBytes} bytes.`);
  if (typeof handler !== 'function') throw bad(`${where} ("${name}").handler must be a function.`);
  if (approval === undefined) return;
  if (!isObject(approval) || !SEVERITIES.includes(approval.severity as string))
    throw bad(`${where} ("${name}").approval.severity must be "low", "medium" or "high".`);
  for (const key of ['summary', 'diff'] as const) {
    if (approval[key] !== undefined && typeof approval[key] !== 'function')
      throw bad(`${where} ("${name}").approval.${key} must be a function of the arguments.`);
  }
}

/** Checks `diosc('browserAdapter', adapter)`'s argument; throws `invalid_command` naming the field. */
export function checkAdapter(value: unknown): BrowserAdapter {
  if (!isObject(value)) throw bad('The adapter must be an object { read?, intents? } (or null to clear it).');
  if (value.read !== undefined && typeof value.read !== 'function')
    throw bad('adapter.read must be a function.');
  if (value.intents !== undefined && !Array.isArray(value.intents))
    throw bad('adapter.intents must be an array.');
  const intents = (value.intents ?? []) as unknown[];
  if (intents.length > PAGE_LIMITS.maxIntents)
    throw bad(`An adapter may declare at most ${PAGE_LIMITS.maxIntents} intents.`);
  const names = new Set<string>();
  intents.forEach((intent, index) => {
    checkIntent(intent, index, names);
  });
  return value as BrowserAdapter;
}

/** The intent as it is on the adapter right now (intents are re-read at every dispatch). */
export function findIntent(adapter: BrowserAdapter | null, name: string): IntentDefinition | undefined {
  return adapter?.intents?.find((intent) => intent.name === name);
}

/** What crosses the wire for each intent: name, description, schema, `approval.severity` — nothing else. */
export function intentMetadata(adapter: BrowserAdapter | null): IntentMetadata[] {
  return (adapter?.intents ?? []).map((intent) => ({
    name: intent.name,
    description: intent.description,
    schema: JSON.parse(JSON.stringify(intent.schema)) as Record<string, unknown>,
    ...(intent.approval ? { approval: { severity: intent.approval.severity } } : {}),
  }));
}

const cut = (text: unknown, max: number) => (typeof text === 'string' ? text.slice(0, max) : undefined);

/**
 * `adapter.read()`, bounded to what the hub accepts: strings cut to their caps, `data` dropped (with
 * a console error) when it is not JSON or is over its cap. A read that throws gives no snapshot.
 */
export async function readSnapshot(adapter: BrowserAdapter | null): Promise<PageSnapshot | undefined> {
  if (!adapter?.read) return undefined;
  let raw: PageSnapshot;
  try {
    raw = await adapter.read();
  } catch (error) {
    console.error('[diosc] browserAdapter: read() threw; the message is sent without a snapshot.', error);
    return undefined;
  }
  if (!isObject(raw)) {
    console.error(
      '[diosc] browserAdapter: read() must return { url, title, description?, content?, data? }.',
    );
    return undefined;
  }
  const snapshot: PageSnapshot = {
    url: cut(raw.url, 2_048) ?? location.href,
    title: cut(raw.title, 512) ?? document.title.slice(0, 512),
  };
  const description = cut(raw.description, PAGE_LIMITS.descriptionMaxChars);
  if (description !== undefined) snapshot.description = description;
  const content = cut(raw.content, PAGE_LIMITS.snapshotContentMaxChars);
  if (content !== undefined) snapshot.content = content;
  if (raw.data !== undefined) {
    const data = toJsonValue(raw.data);
    if (data.ok && JSON.stringify(data.value).length <= PAGE_LIMITS.snapshotDataMaxBytes)
      snapshot.data = data.value;
    else
      console.error(
        `[diosc] browserAdapter: snapshot data left out (${data.ok ? `over ${PAGE_LIMITS.snapshotDataMaxBytes} bytes` : data.reason}).`,
      );
  }
  return snapshot;
}
