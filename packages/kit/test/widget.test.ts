// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { eventually, startKit, widgetRoot } from './support/harness.js';

const composer = () => widgetRoot().querySelector('diosc-composer')!.shadowRoot!;
const dialog = () => widgetRoot().querySelector('diosc-consensus-dialog')!.shadowRoot!;

describe('the widget', () => {
  it('shows a Stop button while a turn runs; Stop cancels it and says so', async () => {
    const { diosc, hub } = startKit({
      init: { open: true },
      script: (turn) =>
        new Promise((_resolve, reject) =>
          turn.signal.addEventListener('abort', () => reject(turn.signal.reason)),
        ),
    });
    await diosc('send', 'take your time');
    const stop = await eventually(
      () =>
        composer().querySelector<HTMLButtonElement>('[part="stop-button"]') ??
        Promise.reject(new Error('no stop button')),
    );
    stop.click();
    await eventually(() =>
      expect(widgetRoot().querySelector('.notice.cancelled')?.textContent).toBe('The reply was stopped.'),
    );
    expect(
      hub.requests.some(
        (r) => r.method === 'POST' && /^\/api\/hub\/turns\/t_[0-9a-f]+\/cancel$/.test(r.path),
      ),
    ).toBe(true);
    await eventually(() => expect(composer().querySelector('[part="send-button"]')).not.toBeNull());
  });

  it('shows offline, and an error with Retry', async () => {
    const { kit } = startKit({ init: { open: true } });
    await eventually(() => expect(kit.state.get().connection).toBe('ready'));
    window.dispatchEvent(new Event('offline'));
    await eventually(() =>
      expect(widgetRoot().querySelector('.status.offline')?.textContent).toContain('You are offline.'),
    );
    kit.state.update((state) => ({
      ...state,
      connection: 'error',
      error: { code: 'origin_not_allowed', message: 'This page origin is not allowed to use the assistant.' },
    }));
    await eventually(() =>
      expect(widgetRoot().querySelector('.status.error')?.textContent).toContain(
        'This page origin is not allowed',
      ),
    );
    expect(widgetRoot().querySelector('.status.error button')?.textContent).toBe('Retry');
  });

  it('shows an error message as text: < and > kept, markup never parsed', async () => {
    const { kit } = startKit({ init: { open: true } });
    await eventually(() => expect(kit.state.get().connection).toBe('ready'));
    const message = 'body.limits.sessionTtlMs must be <= 60000 <b>bold</b><img src=x>';
    kit.state.update((state) => ({
      ...state,
      connection: 'error',
      error: { code: 'invalid_input', message },
    }));
    const status = await eventually(
      () => widgetRoot().querySelector('.status.error') ?? Promise.reject(new Error('no error status')),
    );
    expect(status.textContent).toContain(message);
    expect(status.querySelector('b, img')).toBeNull();
  });

  it('renders model text as markdown and the visitor’s as text; tool rows and events for the host', async () => {
    const tools: unknown[] = [];
    const { diosc } = startKit({
      init: { open: true },
      script: async (turn) => {
        await turn.callTool('read_page', {});
        turn.say('**Done** <img src=x onerror=alert(1)>');
      },
    });
    diosc('on', 'tool', (event) => tools.push(event));
    await diosc('send', '<b>not bold</b>');
    await eventually(() =>
      expect(widgetRoot().querySelector('.message.assistant strong')?.textContent).toBe('Done'),
    );
    expect(widgetRoot().querySelector('.message.assistant img')).toBeNull();
    expect(widgetRoot().querySelector('.message.user .text')?.textContent).toBe('<b>not bold</b>');
    expect(widgetRoot().querySelector('.message.assistant [part="tool-row"]')?.textContent).toContain(
      'read_page — done',
    );
    expect(tools).toEqual([
      { tool: 'read_page', where: 'browser', phase: 'started' },
      { tool: 'read_page', where: 'browser', phase: 'finished', ok: true },
    ]);
  });

  const TEXT_WITH_LINKS = 'See [the login](https://elsewhere.example/login) or [our shop](/shop).';
  const replyLinks = async (outsideLinks: boolean) => {
    const { diosc } = startKit({
      init: { open: true },
      assistant: { outsideLinks },
      script: async (turn) => turn.say(TEXT_WITH_LINKS),
    });
    await diosc('send', 'where?');
    await eventually(() => expect(widgetRoot().querySelector('.message.assistant .text')).not.toBeNull());
    const body = widgetRoot().querySelector('.message.assistant .text')!;
    return {
      hrefs: [...body.querySelectorAll('a')].map((a) => a.getAttribute('href')),
      text: body.textContent,
    };
  };

  it("shows a link off the page's origin as text with its destination, unless the assistant allows outside links", async () => {
    const refused = await replyLinks(false);
    expect(refused.hrefs).toEqual([`${location.origin}/shop`]);
    expect(refused.text).toContain('https://elsewhere.example/login');
  });

  it("makes a link off the page's origin one click away when the assistant allows outside links", async () => {
    expect((await replyLinks(true)).hrefs).toEqual([
      'https://elsewhere.example/login',
      `${location.origin}/shop`,
    ]);
  });

  it('consensusView restyles the detail body only: the decision buttons stay the kit’s', async () => {
    const decisions: unknown[] = [];
    const { diosc, kit } = startKit({
      script: async (turn) => void (await turn.callIntent('publish', { slug: 'a' }, 'high')),
    });
    diosc('on', 'consensus', (event) => decisions.push(event));
    diosc('consensusView', 'publish', ({ args }) => {
      const node = document.createElement('p');
      node.className = 'host-view';
      node.textContent = `Publishing ${String(args.slug)}`;
      const sneaky = document.createElement('button');
      sneaky.type = 'submit';
      sneaky.textContent = 'Approve';
      node.append(sneaky);
      return node;
    });
    diosc('browserAdapter', {
      intents: [
        {
          name: 'publish',
          description: 'Publish.',
          schema: { type: 'object' },
          approval: { severity: 'high' },
          handler: () => ({ success: true }),
        },
      ],
    });
    await diosc('send', 'publish');
    const view = await eventually(
      () =>
        dialog().querySelector('[part="consensus-detail"] .host-view') ??
        Promise.reject(new Error('no view')),
    );
    expect(view.textContent).toBe('Publishing aApprove');
    // The host's node sits outside the decision form: its button submits nothing.
    expect(view.closest('form')).toBeNull();
    expect([...dialog().querySelectorAll('form button')].map((b) => b.textContent?.trim())).toEqual([
      'Reject…',
      'Edit',
      'Approve',
    ]);
    kit.consensus.decide(kit.consensus.shown.get()!.id, { outcome: 'approve' });
    await eventually(() => expect(decisions).toEqual([{ tool: 'publish', decision: 'approve' }]));
  });
});
