import { declinedMessage, type IntentDecisionReport, isObject } from '@diosc/protocol';
import { findIntent } from '../adapter/browser-adapter.js';
import type { ApprovalRequest, Decision } from '../consensus/consensus-broker.js';
import { emit, type KitContext } from '../kit-context.js';
import type { DiffRow, IntentDefinition } from '../types.js';
import { type BrowserCall, errorText, type Outcome, type RunHooks } from './browser-call.js';
import { deliverEmission } from './deliver-emission.js';
import { toJsonValue } from './json-value.js';

/** The seed's exact words for an intent the current adapter no longer has. */
export const vanishedMessage = (name: string) => `intent "${name}" no longer available — page changed`;

/** Summary and diff, computed in the browser from the current adapter; a throwing one falls back. */
function approvalRequest(call: BrowserCall, intent: IntentDefinition): ApprovalRequest {
  const approval = intent.approval;
  let summary = `${intent.name}: ${intent.description}`;
  let diff: DiffRow[] = [];
  try {
    const computed = approval?.summary?.(structuredClone(call.args));
    if (typeof computed === 'string' && computed.trim()) summary = computed;
  } catch (error) {
    console.error(`[diosc] approval.summary of "${intent.name}" threw`, error);
  }
  try {
    const rows = approval?.diff?.(structuredClone(call.args));
    if (Array.isArray(rows))
      diff = rows
        .filter(isObject)
        .map((row) => ({ field: String(row.field), current: row.current, next: row.next }));
  } catch (error) {
    console.error(`[diosc] approval.diff of "${intent.name}" threw`, error);
  }
  return {
    id: call.interruptId ?? `local-${crypto.randomUUID()}`,
    source: 'intent',
    tool: intent.name,
    severity: approval?.severity ?? call.severity ?? 'medium',
    summary,
    diff,
    args: call.args,
    schema: intent.schema,
  };
}

export function decisionReport(decision: Decision): IntentDecisionReport {
  return {
    decision: decision.outcome,
    ...(decision.outcome === 'edit' ? { changed: decision.changed ?? [] } : {}),
    ...(decision.reason ? { reason: decision.reason } : {}),
  };
}

/** The `IntentResult` contract: `{ success, data?, error?, file? }`, the file delivered, all JSON. */
async function intentOutcome(kit: KitContext, call: BrowserCall, value: unknown): Promise<Outcome> {
  if (!isObject(value) || typeof value.success !== 'boolean') {
    const message = `intent "${call.tool}" must return { success, data?, error?, file? }`;
    console.error(`[diosc] ${message}`);
    return { result: { success: false, error: message } };
  }
  const { file, ...rest } = value;
  const json = toJsonValue(rest);
  if (!json.ok) {
    const message = `intent "${call.tool}" returned ${json.reason}, which is not JSON`;
    console.error(`[diosc] ${message}`);
    return { result: { success: false, error: message } };
  }
  if (file === undefined) return { result: json.value };
  const delivered = await deliverEmission(kit, file, call.interruptId);
  if ('error' in delivered)
    return { result: { success: false, error: `The file could not be delivered: ${delivered.error}` } };
  return { result: { ...(json.value as object), file: delivered.file }, file: delivered.file };
}

/**
 * An intent call: re-read off the current adapter (a vanished one runs nothing), gated by the
 * consensus dialog when it declares approval (or the hub says it did), then run with the model's
 * arguments (approve) or the user's (edit); a reject never runs it.
 */
export async function runIntent(kit: KitContext, call: BrowserCall, hooks: RunHooks): Promise<Outcome> {
  let intent = findIntent(kit.adapter.get(), call.tool);
  if (!intent) return { error: vanishedMessage(call.tool) };
  let args = call.args;
  let decision: IntentDecisionReport | undefined;
  if (intent.approval || call.severity) {
    const choice = await kit.consensus.ask(approvalRequest(call, intent), call.signal);
    emit(kit, 'consensus', { tool: call.tool, decision: choice.outcome });
    decision = decisionReport(choice);
    if (choice.outcome === 'reject')
      return { result: { success: false, error: declinedMessage(choice.reason) }, decision };
    if (choice.outcome === 'edit' && choice.args) args = choice.args;
    // The dialog may have been open for a while: the page decides again what runs.
    intent = findIntent(kit.adapter.get(), call.tool);
    if (!intent) return { error: vanishedMessage(call.tool), decision };
  }
  hooks.beforeRun();
  let value: unknown;
  try {
    value = await intent.handler(structuredClone(args));
  } catch (error) {
    value = { success: false, error: errorText(error) };
  }
  const outcome = await intentOutcome(kit, call, value);
  return decision ? { ...outcome, decision } : outcome;
}
