// @vitest-environment happy-dom

import type { AssistantView, TranscriptView } from '@diosc/protocol';
import { DioscError, VISITOR_UPLOAD_TYPES } from '@diosc/protocol';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Portal } from '../src/app/portal.js';
import { initI18n } from '../src/i18n/i18n.js';
import '../src/assistants/transcript-view.js';
import '../src/assistants/settings-form.js';
import '../src/assistants/browser-tools-editor.js';
import '../src/assistants/server-tools-editor.js';

const HOSTILE = '<img src=x onerror="globalThis.pwned=1"><script>globalThis.pwned=2</script>**bold**';

function transcript(): TranscriptView {
  const file = {
    fileId: 'f1',
    filename: HOSTILE,
    format: 'csv',
    downloadUrl: '/api/hub/files/f1',
    sizeBytes: 2048,
  };
  const row = {
    id: 'c1',
    title: HOSTILE,
    visitorId: 'v_1',
    createdAt: '2026-12-01T10:00:00.000Z',
    updatedAt: '2026-12-01T10:01:00.000Z',
    turns: 1,
    status: 'done' as const,
    toolCalls: 2,
    toolsCalled: ['item_write', 'highlight'],
    files: 1,
  };
  return {
    conversation: row,
    messages: [
      { id: 'm1', role: 'user', text: HOSTILE, files: [], tools: [], createdAt: row.createdAt, turnId: 't1' },
      {
        id: 'm2',
        role: 'assistant',
        text: HOSTILE,
        files: [file],
        tools: [],
        createdAt: row.updatedAt,
        turnId: 't1',
      },
    ],
    turns: [
      {
        id: 't1',
        status: 'done',
        error: null,
        createdAt: row.createdAt,
        updatedAt: row.updatedAt,
        toolCalls: [
          {
            id: 'tc1',
            tool: 'item_write',
            kind: 'server',
            status: 'done',
            severity: 'high',
            args: { title: 'Edited <b>title</b>' },
            createdAt: row.createdAt,
            resolvedAt: row.updatedAt,
            interrupt: null,
            consensus: {
              state: 'decided',
              decision: 'edit',
              proposedArgs: { title: HOSTILE },
              changed: ['title'],
              reason: HOSTILE,
            },
            result: { ok: true, text: HOSTILE },
            files: [],
          },
          {
            id: 'tc2',
            tool: 'highlight',
            kind: 'browser',
            status: 'done',
            severity: null,
            args: {},
            createdAt: row.createdAt,
            resolvedAt: row.updatedAt,
            interrupt: { state: 'answered', decision: { decision: 'reject', reason: HOSTILE } },
            consensus: null,
            result: { ok: false, text: HOSTILE },
            files: [],
          },
        ],
      },
    ],
  };
}

async function mount<T extends HTMLElement & { updateComplete: Promise<boolean> }>(
  tag: string,
  props: Record<string, unknown>,
): Promise<T> {
  const element = document.createElement(tag) as T;
  Object.assign(element, props);
  document.body.append(element);
  await element.updateComplete;
  return element;
}

describe('the transcript renders every model, tool and visitor text as text', () => {
  beforeAll(async () => {
    localStorage.clear();
    await initI18n();
  });

  it('shows hostile text literally, never as markup', async () => {
    const view = await mount('diosc-transcript-view', { transcript: transcript() });
    const root = view.shadowRoot!;
    expect(root.querySelector('img')).toBeNull();
    expect(root.querySelector('script')).toBeNull();
    expect(root.querySelector('b')).toBeNull();
    expect((globalThis as { pwned?: number }).pwned).toBeUndefined();
    const texts = [...root.querySelectorAll('.text')].map((node) => node.textContent);
    expect(texts).toEqual([HOSTILE, HOSTILE]);
    expect(root.querySelector('[data-result]')!.textContent).toBe(HOSTILE);
    expect(root.querySelector('.chip span')!.textContent).toBe(HOSTILE);
    expect(root.textContent).toContain('Edited <b>title</b>');
  });

  it('shows the consensus decision with what the model proposed, what ran and the changed fields', async () => {
    const view = await mount('diosc-transcript-view', { transcript: transcript() });
    const root = view.shadowRoot!;
    const consensus = root.querySelector('[data-tool="item_write"] [data-consensus]')!;
    expect(consensus.getAttribute('data-consensus')).toBe('edit');
    expect(consensus.textContent).toContain('Edited and approved');
    expect(consensus.textContent).toContain('The visitor changed: title');
    expect(JSON.parse(consensus.querySelector('[data-proposed]')!.textContent!)).toEqual({ title: HOSTILE });
    expect(JSON.parse(consensus.querySelector('[data-ran]')!.textContent!)).toEqual({
      title: 'Edited <b>title</b>',
    });
    const interrupt = root.querySelector('[data-tool="highlight"] [data-interrupt]')!;
    expect(interrupt.textContent).toContain('Answered');
    expect(interrupt.textContent).toContain('Rejected');
  });
});

/** A portal whose assistant API records calls and answers from `answer`. */
function fakePortal(answer: (method: string, input: unknown) => unknown) {
  const calls: { method: string; input: unknown }[] = [];
  const handler =
    (method: string) =>
    async (...args: unknown[]) => {
      const input = args.at(-1);
      calls.push({ method, input });
      return answer(method, input);
    };
  const portal = {
    assistants: new Proxy({}, { get: (_target, method: string) => handler(method) }),
    toasts: { show() {} },
  } as unknown as Portal;
  return { portal, calls };
}

function field(root: ShadowRoot, id: string): HTMLInputElement | HTMLTextAreaElement {
  return root.querySelector<HTMLInputElement>(`#${id}`)!;
}

/** What the settings form reads of a stored assistant: an OpenAI model with a key set. */
function assistantView(): AssistantView {
  return {
    id: 'ast_1',
    name: 'Shop helper',
    instructions: 'Help.',
    model: { provider: 'openai', id: 'gpt-4o-mini' },
    allowedOrigins: ['https://shop.example'],
    limits: {
      maxStepsPerTurn: 8,
      messagesPerMinute: 20,
      interruptTimeoutMs: 120_000,
      consensusTimeoutMs: 600_000,
      sessionTtlMs: 86_400_000,
    },
    secrets: { providerKey: { set: true }, identitySecret: { set: false } },
  } as AssistantView;
}

async function chooseProvider(form: HTMLElement & { updateComplete: Promise<boolean> }, provider: string) {
  const select = form.shadowRoot!.querySelector<HTMLSelectElement>('#provider')!;
  select.value = provider;
  select.dispatchEvent(new Event('change'));
  await form.updateComplete;
}

function describedText(root: ShadowRoot, id: string): string {
  const ids = field(root, id).getAttribute('aria-describedby') ?? '';
  return ids
    .split(' ')
    .map((one) => root.getElementById(one)?.textContent?.trim() ?? '')
    .join(' ');
}

describe('the settings form refuses bad input before and after the server answers', () => {
  beforeAll(async () => {
    localStorage.clear();
    await initI18n();
  });

  it('marks each bad field invalid with its message and sends nothing', async () => {
    const { portal, calls } = fakePortal(() => {
      throw new Error('must not be called');
    });
    const form = await mount<HTMLElement & { updateComplete: Promise<boolean> }>('diosc-assistant-settings', {
      portal,
      assistant: null,
    });
    await chooseProvider(form, 'openai');
    const root = form.shadowRoot!;
    field(root, 'name').value = '';
    field(root, 'modelId').value = 'gpt-4o-mini';
    field(root, 'origins').value = 'https://shop.example/\nhttps://ok.example';
    field(root, 'maxStepsPerTurn').value = '0';
    root.querySelector('form')!.requestSubmit();
    await form.updateComplete;
    expect(calls).toEqual([]);
    expect(field(root, 'name').getAttribute('aria-invalid')).toBe('true');
    expect(describedText(root, 'name')).toBe('Give the assistant a name.');
    expect(field(root, 'origins').getAttribute('aria-invalid')).toBe('true');
    expect(describedText(root, 'origins')).toContain(
      'Line 1: “https://shop.example/” has a path, slash, query or fragment. Use exactly https://shop.example.',
    );
    expect(field(root, 'maxStepsPerTurn').getAttribute('aria-invalid')).toBe('true');
    expect(describedText(root, 'maxStepsPerTurn')).toContain('From 1 to 50.');
    expect(field(root, 'modelId').getAttribute('aria-invalid')).toBe('false');
  });

  it('shows the server refusal in an alert, and sends the key once without keeping it', async () => {
    const { portal, calls } = fakePortal(() => {
      throw new DioscError('invalid_input', 'body.limits.maxStepsPerTurn must be <= 50.');
    });
    const form = await mount<HTMLElement & { updateComplete: Promise<boolean> }>('diosc-assistant-settings', {
      portal,
      assistant: null,
    });
    await chooseProvider(form, 'openai');
    const root = form.shadowRoot!;
    field(root, 'name').value = 'Shop helper';
    field(root, 'modelId').value = 'gpt-4o-mini';
    field(root, 'providerKey').value = 'sk-test-secret';
    field(root, 'origins').value = 'http://127.0.0.1:5173';
    root.querySelector('form')!.requestSubmit();
    await new Promise((resolve) => setTimeout(resolve, 0));
    await form.updateComplete;
    expect(calls).toHaveLength(1);
    expect(calls[0]!.method).toBe('create');
    expect(calls[0]!.input).toMatchObject({
      name: 'Shop helper',
      model: { provider: 'openai', id: 'gpt-4o-mini' },
      allowedOrigins: ['http://127.0.0.1:5173'],
      providerKey: 'sk-test-secret',
    });
    const alert = root.querySelector('[role="alert"]')!;
    expect(alert.textContent).toContain('body.limits.maxStepsPerTurn must be <= 50.');
    // The refusal is tied to the field it names, as the page's own are.
    expect(field(root, 'maxStepsPerTurn').getAttribute('aria-invalid')).toBe('true');
    expect(describedText(root, 'maxStepsPerTurn')).toContain('body.limits.maxStepsPerTurn must be <= 50.');
    expect(field(root, 'name').getAttribute('aria-invalid')).toBe('false');
  });
});

describe("the settings form's model fields", () => {
  beforeAll(async () => {
    localStorage.clear();
    await initI18n();
  });
  const newForm = async () => {
    const fake = fakePortal(() => ({
      ok: false,
      error: { code: 'model_failed', message: 'Incorrect API key.' },
    }));
    const form = await mount<HTMLElement & { updateComplete: Promise<boolean> }>('diosc-assistant-settings', {
      portal: fake.portal,
      assistant: null,
    });
    return { form, root: form.shadowRoot!, ...fake };
  };

  it('starts on the automatic provider, which asks for no model ID and says what the server picks', async () => {
    const { form, root, calls } = await newForm();
    expect(root.querySelector<HTMLSelectElement>('#provider')!.value).toBe('auto');
    expect(root.querySelector('#modelId')).toBeNull();
    expect(root.querySelector('#auto-model')!.textContent).toContain('scripted demo model (not an AI)');
    field(root, 'name').value = 'Shop helper';
    field(root, 'origins').value = 'https://shop.example';
    root.querySelector('form')!.requestSubmit();
    await form.updateComplete;
    expect(calls.map((call) => call.method)).toEqual(['create']);
    expect((calls[0]!.input as { model: unknown }).model).toEqual({ provider: 'auto' });
  });

  it('lets the scripted provider go without an ID (the demo model) and hints each provider its own example', async () => {
    const { form, root, calls } = await newForm();
    await chooseProvider(form, 'scripted');
    expect(describedText(root, 'modelId')).toBe('Leave empty for the scripted demo model (not an AI).');
    field(root, 'name').value = 'Demo';
    root.querySelector('form')!.requestSubmit();
    await form.updateComplete;
    expect((calls[0]!.input as { model: unknown }).model).toEqual({ provider: 'scripted' });
    await chooseProvider(form, 'anthropic');
    expect(describedText(root, 'modelId')).toContain('claude-sonnet-4-5');
    await chooseProvider(form, 'openai-compatible');
    expect(describedText(root, 'modelId')).toContain('llama3.2');
  });

  it('forgets a Test connection answer once the provider or a model field changes', async () => {
    const fake = fakePortal(() => ({
      ok: false,
      error: { code: 'model_failed', message: 'Incorrect API key.' },
    }));
    const form = await mount<HTMLElement & { updateComplete: Promise<boolean> }>('diosc-assistant-settings', {
      portal: fake.portal,
      assistant: assistantView(),
    });
    const root = form.shadowRoot!;
    const test = async () => {
      root.querySelector<HTMLButtonElement>('#test-connection')!.click();
      await new Promise((resolve) => setTimeout(resolve, 0));
      await form.updateComplete;
    };
    await test();
    expect(root.querySelector('.provider-error')!.textContent).toBe('Incorrect API key.');
    await chooseProvider(form, 'anthropic');
    expect(root.querySelector('.provider-error')).toBeNull();
    await test();
    expect(root.querySelector('.provider-error')).not.toBeNull();
    field(root, 'modelId').value = 'claude-sonnet-4-5';
    field(root, 'modelId').dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    await form.updateComplete;
    expect(root.querySelector('.provider-error')).toBeNull();
    // The provider changed from the stored one, so the test is of the provider on screen.
    expect(fake.calls.at(-1)!.input).toEqual({ model: { provider: 'anthropic', id: '' } });
  });
});

describe("the settings form's uploads", () => {
  beforeAll(async () => {
    localStorage.clear();
    await initI18n();
  });

  it('starts a new assistant with uploads off, the usual types and 10 MiB, and sends them so', async () => {
    const { portal, calls } = fakePortal(() => ({}));
    const form = await mount<HTMLElement & { updateComplete: Promise<boolean> }>('diosc-assistant-settings', {
      portal,
      assistant: null,
    });
    const root = form.shadowRoot!;
    expect((field(root, 'upload-enabled') as HTMLInputElement).checked).toBe(false);
    const types = [...root.querySelectorAll<HTMLInputElement>('input[name="uploadTypes"]')];
    expect(types.filter((box) => box.checked).map((box) => box.value)).toEqual([...VISITOR_UPLOAD_TYPES]);
    expect(field(root, 'upload-max').value).toBe('10');
    field(root, 'name').value = 'Storefront';
    root.querySelector('form')!.requestSubmit();
    await form.updateComplete;
    expect((calls[0]!.input as { files: unknown }).files).toEqual({
      enabled: false,
      allowedTypes: [...VISITOR_UPLOAD_TYPES],
      maxFileBytes: 10 * 1024 * 1024,
    });
  });

  it("shows a stored assistant's own types, keeps one outside the usual list, and refuses on with none", async () => {
    const { portal, calls } = fakePortal(() => ({}));
    const stored = {
      ...assistantView(),
      files: {
        enabled: true,
        allowedTypes: ['image/png', 'application/x-plan'],
        maxFileBytes: 2 * 1024 * 1024,
      },
    };
    const form = await mount<HTMLElement & { updateComplete: Promise<boolean> }>('diosc-assistant-settings', {
      portal,
      assistant: stored,
    });
    const root = form.shadowRoot!;
    const checked = () =>
      [...root.querySelectorAll<HTMLInputElement>('input[name="uploadTypes"]')]
        .filter((box) => box.checked)
        .map((box) => box.value);
    expect(checked()).toEqual(['image/png', 'application/x-plan']);
    expect(field(root, 'upload-max').value).toBe('2');
    for (const box of root.querySelectorAll<HTMLInputElement>('input[name="uploadTypes"]'))
      box.checked = false;
    root.querySelector('form')!.requestSubmit();
    await form.updateComplete;
    expect(calls).toEqual([]);
    expect(root.querySelector('#upload-types')!.getAttribute('aria-invalid')).toBe('true');
    expect(root.querySelector('#upload-types-error')!.textContent).toBe(
      'Choose at least one type, or turn uploads off.',
    );
  });
});

describe("the settings form's outside links", () => {
  beforeAll(async () => {
    localStorage.clear();
    await initI18n();
  });

  it('shows the stored setting and sends what the owner leaves checked', async () => {
    const { portal, calls } = fakePortal(() => ({}));
    const form = await mount<HTMLElement & { updateComplete: Promise<boolean> }>('diosc-assistant-settings', {
      portal,
      assistant: { ...assistantView(), outsideLinks: true },
    });
    const root = form.shadowRoot!;
    const box = field(root, 'outside-links') as HTMLInputElement;
    expect(box.checked).toBe(true);
    box.checked = false;
    root.querySelector('form')!.requestSubmit();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect((calls[0]!.input as { outsideLinks: boolean }).outsideLinks).toBe(false);
  });
});

describe('the browser tool editor', () => {
  beforeAll(async () => {
    localStorage.clear();
    await initI18n();
  });

  it('refuses a bad schema with a message tied to the field, and previews a good one as text', async () => {
    const assistant = { id: 'a1', name: 'A', browserTools: [] };
    const { portal, calls } = fakePortal((method) =>
      method === 'previewTools' ? { tools: [], notOffered: [], mcpErrors: [] } : assistant,
    );
    const editor = await mount<HTMLElement & { updateComplete: Promise<boolean> }>(
      'diosc-browser-tools-editor',
      {
        portal,
        assistant,
      },
    );
    const root = editor.shadowRoot!;
    root.querySelector<HTMLButtonElement>('#add-browser-tool')!.click();
    await editor.updateComplete;
    const type = (id: string, value: string) => {
      const input = field(root, id);
      input.value = value;
      input.dispatchEvent(new Event('input'));
    };
    type('tool-name', 'highlight_row');
    type('tool-description', '<b>Highlights</b> a row');
    type('tool-schema', '{"type":"object","properties":{"id":{"type":"strin"}}}');
    await editor.updateComplete;
    root.querySelector<HTMLFormElement>('form')!.requestSubmit();
    await editor.updateComplete;
    expect(calls.filter((call) => call.method === 'update')).toEqual([]);
    expect(field(root, 'tool-schema').getAttribute('aria-invalid')).toBe('true');
    expect(describedText(root, 'tool-schema')).toContain('schema.id has an unknown type “strin”.');
    type('tool-schema', '{"type":"object","properties":{"id":{"type":"string"}}}');
    await editor.updateComplete;
    const preview = root.querySelector('pre.preview')!;
    expect(JSON.parse(preview.textContent!)).toEqual({
      name: 'highlight_row',
      description: '<b>Highlights</b> a row',
      inputSchema: { type: 'object', properties: { id: { type: 'string' } } },
    });
    expect(root.querySelector('pre.preview b')).toBeNull();
  });
});

describe('the server tools editor', () => {
  beforeAll(async () => {
    localStorage.clear();
    await initI18n();
  });

  const assistant = {
    id: 'a1',
    name: 'A',
    serverTools: {
      account: { grant: [{ collection: 'notes', functions: ['items_list'] }], connectionId: 'c1' },
      mcpServers: [{ name: 'crm', url: 'https://crm.example/mcp', token: { set: true } }],
      generateFile: { enabled: false, formats: ['csv'], maxBytes: 1024 * 1024 },
      consensus: { item_write: 'high' },
    },
  };

  it('edits the grant with the Connected apps picker and never resends a stored token', async () => {
    const { portal, calls } = fakePortal(() => assistant);
    (portal as unknown as { api: unknown }).api = {
      operation: async () => ({
        result: {
          collections: [
            {
              id: 'notes',
              title: 'Notes',
              kind: 'storage',
              functions: ['items_list', 'item_read', 'item_write', 'item_delete'],
              state: 'active',
            },
          ],
        },
      }),
    };
    const editor = await mount<HTMLElement & { updateComplete: Promise<boolean> }>(
      'diosc-server-tools-editor',
      {
        portal,
        assistant,
      },
    );
    const root = editor.shadowRoot!;
    const picker = root.querySelector('diosc-grant-picker')!;
    expect(picker).not.toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 0));
    await (picker as unknown as { updateComplete: Promise<boolean> }).updateComplete;
    const cell = picker.shadowRoot!.querySelector<HTMLInputElement>('input[data-function="items_list"]')!;
    expect(cell.checked).toBe(true);
    expect(root.querySelector<HTMLInputElement>('#mcp-token-0')!.value).toBe('');
    cell.click();
    await editor.updateComplete;
    root.querySelector('form')!.requestSubmit();
    await new Promise((resolve) => setTimeout(resolve, 0));
    const update = calls.find((call) => call.method === 'update');
    expect(update?.input).toEqual({
      serverTools: {
        account: null,
        mcpServers: [{ name: 'crm', url: 'https://crm.example/mcp' }],
        generateFile: { enabled: false, formats: ['csv'], maxBytes: 1024 * 1024 },
        consensus: { item_write: 'high' },
      },
    });
  });
});

describe('generate_file settings', () => {
  beforeAll(async () => {
    localStorage.clear();
    await initI18n();
  });

  it('refuses generate_file on with no format, or a size out of range, and sends nothing', async () => {
    const assistant = {
      id: 'a1',
      name: 'A',
      serverTools: {
        account: null,
        mcpServers: [],
        generateFile: { enabled: false, formats: ['csv'], maxBytes: 1024 },
        consensus: {},
      },
    };
    const { portal, calls } = fakePortal(() => assistant);
    (portal as unknown as { api: unknown }).api = {
      operation: async () => ({ result: { collections: [] } }),
    };
    const editor = await mount<HTMLElement & { updateComplete: Promise<boolean> }>(
      'diosc-server-tools-editor',
      {
        portal,
        assistant,
      },
    );
    const root = editor.shadowRoot!;
    root.querySelector<HTMLInputElement>('#gen-enabled')!.click();
    root.querySelector<HTMLInputElement>('input[data-format="csv"]')!.click();
    const size = root.querySelector<HTMLInputElement>('#gen-max')!;
    size.value = '99999';
    size.dispatchEvent(new Event('input'));
    await editor.updateComplete;
    root.querySelector('form')!.requestSubmit();
    await editor.updateComplete;
    expect(calls.filter((call) => call.method === 'update')).toEqual([]);
    expect(root.querySelector('fieldset')!.getAttribute('aria-invalid')).toBe('true');
    expect(root.getElementById('gen-formats-error')!.textContent).toBe(
      'Choose at least one format, or turn generate_file off.',
    );
    expect(size.getAttribute('aria-invalid')).toBe('true');
    expect(describedText(root, 'gen-max')).toContain('Out of range: use a number from 1 to 10240.');
    // Fixed, it sends the size in bytes.
    root.querySelector<HTMLInputElement>('input[data-format="md"]')!.click();
    size.value = '64';
    size.dispatchEvent(new Event('input'));
    await editor.updateComplete;
    root.querySelector('form')!.requestSubmit();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(calls.find((call) => call.method === 'update')?.input).toMatchObject({
      serverTools: { account: null, generateFile: { enabled: true, formats: ['md'], maxBytes: 64 * 1024 } },
    });
  });
});
