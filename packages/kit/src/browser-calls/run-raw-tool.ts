import type { FileDescriptor } from '@diosc/protocol';
import { isObject } from '@diosc/protocol';
import type { KitContext } from '../kit-context.js';
import { type BrowserCall, errorText, type Outcome, type RunHooks } from './browser-call.js';
import { deliverEmission } from './deliver-emission.js';
import { toJsonValue } from './json-value.js';

/**
 * A raw tool call: the host's handler (or the built-in of that name) with the tool's parameters.
 * Any JSON return is the result; `{ error }` or a throw is the error result; anything that is not
 * JSON (a DOM node, a cycle, a function) is a clear error, never a crash. A `file` field is
 * uploaded and replaced by its byte-free descriptor, as an intent's is.
 */
export async function runRawTool(kit: KitContext, call: BrowserCall, hooks: RunHooks): Promise<Outcome> {
  const handler = kit.tools.get(call.tool) ?? kit.builtIns.get(call.tool);
  if (!handler) return { error: `browser tool "${call.tool}" is not registered on this page` };
  hooks.beforeRun();
  let value: unknown;
  try {
    value = await handler(call.args, { interruptId: call.interruptId, leavingPage: hooks.leavingPage });
  } catch (error) {
    return { error: errorText(error) };
  }
  if (isObject(value) && typeof value.error === 'string') return { error: errorText(value.error) };
  let file: FileDescriptor | undefined;
  // A `file` field is always an emission to upload, exactly as an intent's: one that is not well
  // formed is an error, never passed on with its bytes to the hub and the model.
  if (isObject(value) && value.file !== undefined) {
    const delivered = await deliverEmission(kit, value.file, call.interruptId);
    if ('error' in delivered) return { error: `The file could not be delivered: ${delivered.error}` };
    file = delivered.file;
    value = { ...value, file };
  }
  const json = toJsonValue(value);
  if (!json.ok) {
    const message = `browser tool "${call.tool}" returned ${json.reason}, which is not JSON; return plain data`;
    console.error(`[diosc] ${message}`);
    return { error: message };
  }
  return file ? { result: json.value, file } : { result: json.value };
}
