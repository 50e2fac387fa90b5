import type { ScriptedCall, ScriptedStep } from '@diosc/server/scripted';
import { readTurn, type TurnSoFar } from '@diosc/server/scripted';
import type { DiagramData } from '../src/editor/editor-bridge.js';

export const PLYNTH_MODEL_ID = 'plynth';

/** The phrases the scripted Plynth model understands, as the tutorial and `help` list them. */
export const PLYNTH_PHRASES = [
  'describe the diagram',
  'add Legal review after Draft contract',
  'add Archive',
  'connect Welcome call to Sign-up form',
  'rename Verify email to Confirm email',
  'delete Welcome call',
  'disconnect Sign-up form from Verify email',
  'export it as PNG',
  'help',
];

const INTRO = 'I am the Plynth scripted demo model, not an AI: I follow a few fixed phrases.';
const REAL_MODEL =
  'For a real model, set ANTHROPIC_API_KEY, OPENAI_API_KEY or DIOSC_OLLAMA_URL and run the example again.';
const APPLY = 'browser_apply_changes';
const EXPORT = 'browser_export_png';

/** The open document as the adapter's snapshot `data` carries it. */
type OpenDocument = DiagramData;

type Op = Record<string, string>;
type Plan = (doc: OpenDocument) => ScriptedStep;

/** The open document, as the adapter's snapshot `data` describes it (null when none is open). */
function openDocument(turn: TurnSoFar): OpenDocument | null {
  const data = turn.page?.data as Partial<OpenDocument> | undefined;
  return data && typeof data.documentId === 'string' && Array.isArray(data.nodes)
    ? (data as OpenDocument)
    : null;
}

/** A step by its label: exactly (any case), else the one step whose label starts with it. */
function stepNamed(doc: OpenDocument, name: string): { id: string; label: string } | undefined {
  const wanted = name.trim().toLowerCase();
  const exact = doc.nodes.find((node) => node.label.toLowerCase() === wanted);
  if (exact) return exact;
  const starts = doc.nodes.filter((node) => node.label.toLowerCase().startsWith(wanted));
  return starts.length === 1 ? starts[0] : undefined;
}

/** `left <sep> right` where `left` names a step (labels may contain the separator word). */
function splitOnStep(doc: OpenDocument, text: string, separator: string) {
  const parts = text.split(` ${separator} `);
  for (let cut = 1; cut < parts.length; cut++) {
    const left = stepNamed(doc, parts.slice(0, cut).join(` ${separator} `));
    if (left) return { left, right: parts.slice(cut).join(` ${separator} `) };
  }
  return undefined;
}

const slug = (label: string) =>
  label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 24) || 'step';

const noStep = (doc: OpenDocument, name: string): ScriptedStep => ({
  text: `There is no step called “${name}” in “${doc.title}”. The steps are: ${doc.nodes.map((node) => node.label).join(', ')}.`,
});

const change = (doc: OpenDocument, ops: Op[]): ScriptedStep => ({
  toolCalls: [{ toolName: APPLY, input: { document: doc.documentId, ops } }],
});

function newId(doc: OpenDocument, label: string): string {
  const base = /^[a-z]/.test(slug(label)) ? slug(label) : `s-${slug(label)}`;
  let id = base;
  for (let n = 2; doc.nodes.some((node) => node.id === id); n++) id = `${base}-${n}`;
  return id;
}

/** The visitor's words → what to do with the open document (first match wins). */
function planFor(words: string): Plan | undefined {
  const text = words.trim().replace(/[.!]+$/, '');
  const lower = text.toLowerCase();
  if (/^(?:describe|summari[sz]e) (?:the |this )?diagram$|^what is in (?:the |this )?diagram\??$/.test(lower))
    return (doc) => ({
      text: `“${doc.title}” has ${doc.nodeCount} step(s) and ${doc.edgeCount} arrow(s). Steps: ${doc.nodes.map((node) => node.label).join(', ')}.`,
    });
  if (/^export (?:it|this|the diagram)(?: as (?:a )?png)?$/.test(lower))
    return () => ({ toolCalls: [{ toolName: EXPORT, input: {} }] });
  let match = /^add (.+)$/i.exec(text);
  if (match)
    return (doc) => {
      const split = /^(.+) after (.+)$/i.exec(match![1]!);
      const after = split ? stepNamed(doc, split[2]!) : undefined;
      if (split && !after) return noStep(doc, split[2]!);
      const label = (split ? split[1]! : match![1]!).trim();
      const id = newId(doc, label);
      const add = { op: 'add_node', id, label, ...(after ? { after: after.id } : {}) };
      return change(doc, after ? [add, { op: 'connect', from: after.id, to: id }] : [add]);
    };
  match = /^(connect|disconnect|rename) (.+)$/i.exec(text);
  if (match) {
    const verb = match[1]!.toLowerCase();
    const rest = match[2]!;
    return (doc) => {
      const split = splitOnStep(doc, rest, verb === 'disconnect' ? 'from' : 'to');
      if (!split) return noStep(doc, rest.split(/ (?:to|from) /)[0]!);
      if (verb === 'rename')
        return change(doc, [{ op: 'rename', id: split.left.id, label: split.right.trim() }]);
      const other = stepNamed(doc, split.right);
      if (!other) return noStep(doc, split.right);
      return verb === 'connect'
        ? change(doc, [{ op: 'connect', from: split.left.id, to: other.id }])
        : change(doc, [{ op: 'delete_edge', from: split.left.id, to: other.id }]);
    };
  }
  match = /^(?:delete|remove) (.+)$/i.exec(text);
  if (match)
    return (doc) => {
      const step = stepNamed(doc, match![1]!);
      return step ? change(doc, [{ op: 'delete_node', id: step.id }]) : noStep(doc, match![1]!);
    };
  return undefined;
}

/** What to say once the page answered: the result is data, quoted, never obeyed. */
function report(turn: TurnSoFar): ScriptedStep {
  const result = turn.results.at(-1)!;
  if (!result.ok)
    return { text: `Nothing was changed (${result.error}). Open the document again and tell me what to do.` };
  const value = (result.value ?? {}) as { success?: boolean; error?: string; data?: Record<string, unknown> };
  if (result.toolName === EXPORT)
    return value.success
      ? { text: `Here is “${String(value.data?.title)}” as a PNG — use the download chip below.` }
      : { text: `The export did not reach you: ${value.error ?? 'unknown error'}` };
  if (!value.success)
    return value.error?.startsWith('Action declined by user')
      ? { text: `Understood — I left the diagram as it is (${value.error}).` }
      : { text: `Nothing was changed: ${value.error ?? 'unknown error'}` };
  const applied = (value.data?.applied as string[] | undefined) ?? [];
  return {
    text: `Done: ${applied.join('; ')}. The diagram now has ${String(value.data?.nodeCount)} step(s) and ${String(value.data?.edgeCount)} arrow(s).`,
  };
}

/**
 * The scripted model `npm run example -- plynth` runs without a model key: deterministic, named as
 * scripted wherever it is shown, never presented as an AI. Like a real model it reads the open
 * document from the snapshot the adapter sends, names steps by their ids, and reports the result.
 */
export function plynthScript(call: ScriptedCall): ScriptedStep {
  const turn = readTurn(call);
  if (turn.results.length > 0) return report(turn);
  if (/^(?:help|\?)$/i.test(turn.text))
    return {
      text: `${INTRO} Try: ${PLYNTH_PHRASES.map((phrase) => `“${phrase}”`).join(', ')}. ${REAL_MODEL}`,
    };
  const plan = planFor(turn.text);
  if (!plan) return { text: `${INTRO} Type “help” for the list. ${REAL_MODEL}` };
  const doc = openDocument(turn);
  if (!doc) return { text: 'No document is open. Open one on the left first.' };
  const step = plan(doc);
  const missing = step.toolCalls?.find((each) => !turn.offered.has(each.toolName));
  if (missing)
    return { text: `This page offers no ${missing.toolName} right now, so I cannot do that here.` };
  return step;
}
