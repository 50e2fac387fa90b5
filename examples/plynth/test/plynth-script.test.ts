import type { LanguageModelV3Prompt } from '@ai-sdk/provider';
import type { ScriptedStep } from '@diosc/server/scripted';
import { renderSnapshot } from '@diosc/server/testing';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { plynthScript } from '../demo/plynth-script.js';
import { diagramAdapter } from '../src/assistant/diagram-adapter.js';
import { createDocumentStore } from '../src/documents/document-store.js';
import { createEditor } from '../src/editor/editor.js';
import { createEditorBridge } from '../src/editor/editor-bridge.js';

/** A `Storage` over a Map: the document store as it runs in a browser, without one. */
function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, value),
  };
}

const store = createDocumentStore(memoryStorage());
const bridge = createEditorBridge(createEditor(store, store.get('onboarding')!));
const applyChanges = diagramAdapter(bridge).intents![0]!;
const validArgs = new Ajv({ strict: false }).compile(applyChanges.schema);
const TOOLS = ['browser_apply_changes', 'browser_export_png'];

/** The model call the hub makes for `words` typed on the open onboarding document. */
function ask(words: string, options: { snapshot?: boolean; tools?: string[]; results?: unknown[] } = {}) {
  const page = renderSnapshot({
    url: 'http://localhost:5174/?doc=onboarding',
    title: 'Customer onboarding · Plynth',
    content: bridge.toMarkdown(),
    data: bridge.data(),
  });
  const prompt: LanguageModelV3Prompt = [
    { role: 'system', content: 'rules' },
    {
      role: 'user',
      content: [
        { type: 'text', text: words },
        ...(options.snapshot === false ? [] : [{ type: 'text' as const, text: page }]),
      ],
    },
  ];
  for (const [index, value] of (options.results ?? []).entries()) {
    const toolName = 'browser_apply_changes';
    prompt.push(
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: `c${index}`, toolName, input: {} }] },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: `c${index}`,
            toolName,
            output:
              typeof value === 'string'
                ? { type: 'error-text', value }
                : { type: 'json', value: value as never },
          },
        ],
      },
    );
  }
  return plynthScript({ prompt, tools: options.tools ?? TOOLS, index: 0 }) as ScriptedStep;
}

/** The ops of the step's apply_changes call, checked against the adapter's own schema. */
function opsOf(step: ScriptedStep) {
  const call = step.toolCalls?.[0];
  expect(call?.toolName).toBe('browser_apply_changes');
  expect(validArgs(call!.input)).toBe(true);
  expect(call!.input.document).toBe('onboarding');
  return call!.input.ops;
}

describe('the scripted Plynth model: phrases → apply_changes ops the adapter’s schema accepts', () => {
  it('names steps by the ids it read in the snapshot', () => {
    expect(opsOf(ask('Add Legal review after Draft contract'))).toEqual([
      { op: 'add_node', id: 'legal-review', label: 'Legal review', after: 'n3' },
      { op: 'connect', from: 'n3', to: 'legal-review' },
    ]);
    expect(opsOf(ask('add Archive'))).toEqual([{ op: 'add_node', id: 'archive', label: 'Archive' }]);
    expect(opsOf(ask('Rename Verify email to Confirm email'))).toEqual([
      { op: 'rename', id: 'n2', label: 'Confirm email' },
    ]);
    expect(opsOf(ask('connect welcome call to sign-up form'))).toEqual([
      { op: 'connect', from: 'n4', to: 'n1' },
    ]);
    expect(opsOf(ask('Disconnect Sign-up form from Verify email'))).toEqual([
      { op: 'delete_edge', from: 'n1', to: 'n2' },
    ]);
    expect(opsOf(ask('delete Welcome call.'))).toEqual([{ op: 'delete_node', id: 'n4' }]);
    expect(opsOf(ask('remove Draft'))).toEqual([{ op: 'delete_node', id: 'n3' }]);
  });

  it('exports through the export_png intent', () => {
    expect(ask('Export it as PNG')).toEqual({ toolCalls: [{ toolName: 'browser_export_png', input: {} }] });
  });

  it('says so instead of guessing: an unknown step, no open document, a tool the page does not offer', () => {
    expect(ask('delete Payroll').text).toBe(
      'There is no step called “Payroll” in “Customer onboarding”. The steps are: Sign-up form, Verify email, Draft contract, Welcome call.',
    );
    expect(ask('delete Welcome call', { snapshot: false }).text).toBe(
      'No document is open. Open one on the left first.',
    );
    expect(ask('delete Welcome call', { tools: [] }).text).toBe(
      'This page offers no browser_apply_changes right now, so I cannot do that here.',
    );
    expect(ask('what is the weather?').text).toMatch(
      /^I am the Plynth scripted demo model, not an AI: .*DIOSC_OLLAMA_URL/,
    );
  });

  it('reports what the page answered: applied, declined (with the reason), page changed', () => {
    expect(
      ask('delete Welcome call', {
        results: [
          {
            success: true,
            data: { applied: ['deleted step n4 and 1 arrow(s)'], nodeCount: 3, edgeCount: 2 },
          },
        ],
      }).text,
    ).toBe('Done: deleted step n4 and 1 arrow(s). The diagram now has 3 step(s) and 2 arrow(s).');
    expect(
      ask('delete Welcome call', { results: [{ success: false, error: 'Action declined by user: keep it' }] })
        .text,
    ).toBe('Understood — I left the diagram as it is (Action declined by user: keep it).');
    expect(
      ask('delete Welcome call', { results: ['intent "apply_changes" no longer available — page changed'] })
        .text,
    ).toBe(
      'Nothing was changed (intent "apply_changes" no longer available — page changed). Open the document again and tell me what to do.',
    );
  });
});
