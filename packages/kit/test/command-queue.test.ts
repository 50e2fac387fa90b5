// @vitest-environment happy-dom
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFakeHub } from '../src/testing/index.js';

afterEach(() => {
  vi.restoreAllMocks();
  localStorage.clear();
  sessionStorage.clear();
});

/** The snippet exactly as docs/kit.md publishes it. */
const SNIPPET = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '../../../docs/kit.md'), 'utf8')
  .split('\n')
  .find((line) => line.startsWith('window.diosc=window.diosc||'))!;

describe('the command queue', () => {
  it('replays calls made before the kit loaded, in order, then window.diosc is the kit; the module is the same kit', async () => {
    const hub = createFakeHub();
    const errors: string[] = [];
    vi.spyOn(console, 'error').mockImplementation(
      (...args: unknown[]) => void errors.push(args.map(String).join(' ')),
    );
    // The snippet of docs/kit.md, as a page runs it before the kit's <script async> arrives.
    expect(SNIPPET).toBe(
      'window.diosc=window.diosc||function(){(window.diosc.q=window.diosc.q||[]).push(arguments)};',
    );
    new Function(SNIPPET)();
    const stub = (window as unknown as { diosc: ((...args: unknown[]) => void) & { q?: unknown[][] } }).diosc;
    const messages: string[] = [];
    stub('init', { hubUrl: hub.url, publishableKey: hub.publishableKey, fetch: hub.fetch });
    stub('tool', 'first_tool', () => 1);
    stub('not_a_command');
    stub('tool', 'second_tool', () => 2);
    stub('on', 'message', (message: { text: string }) => messages.push(message.text));
    stub('send', 'queued hello');
    expect(stub.q).toHaveLength(6);

    await import('../src/loader.js');
    const installed = (window as unknown as { diosc: unknown }).diosc;
    expect(installed).not.toBe(stub);
    expect(errors).toEqual([expect.stringMatching(/^\[diosc\] unknown command "not_a_command"/)]);
    await vi.waitFor(() => expect(messages).toEqual(['You said: queued hello']));
    const sent = hub.requests.find((r) => r.path.endsWith('/messages'))!.body as {
      registry: { tools: string[] };
    };
    expect(sent.registry.tools).toEqual(['navigate', 'read_page', 'first_tool', 'second_tool']);

    const { diosc } = await import('../src/index.js');
    expect(diosc).toBe(installed);
    diosc('destroy');
  });
});
