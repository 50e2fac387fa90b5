// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { eventually, newKit, startKit } from './support/harness.js';

const HUB = { hubUrl: 'https://hub.test', publishableKey: 'pk_test_fakehub0001' };
const intent = {
  name: 'apply',
  description: 'Apply it.',
  schema: { type: 'object' },
  handler: () => ({ success: true }),
};

/** Each bad call gives exactly one console error naming the command and the problem. */
const CASES: [string, unknown[], RegExp][] = [
  ['init', [], /^\[diosc\] init: needs an options object/],
  ['init', [{ publishableKey: HUB.publishableKey }], /^\[diosc\] init: hubUrl must be/],
  ['init', [{ ...HUB, hubUrl: 'javascript:alert(1)' }], /^\[diosc\] init: hubUrl must be/],
  ['init', [{ ...HUB, publishableKey: 'sk_live_secret' }], /^\[diosc\] init: publishableKey must be/],
  ['init', [{ ...HUB, colour: 'red' }], /^\[diosc\] init: unknown option\(s\) colour/],
  ['init', [{ ...HUB, locale: 'fr' }], /^\[diosc\] init: locale must be one of en, es/],
  ['init', [{ ...HUB, theme: { color: 'red' } }], /^\[diosc\] init: theme.color: only "--diosc-\*"/],
  ['init', [{ ...HUB, mount: '#nowhere' }], /^\[diosc\] init: mount: no element matches "#nowhere"/],
  ['init', [{ ...HUB, webmcp: 'yes' }], /^\[diosc\] init: webmcp must be true or false/],
  ['init', [{ ...HUB, identity: '' }], /^\[diosc\] init: identity must be/],
  ['init', [HUB, 'extra'], /^\[diosc\] init: takes at most 1 argument/],
  ['tool', ['bad name', () => 1], /^\[diosc\] tool: name must match/],
  ['tool', ['browser_x', () => 1], /^\[diosc\] tool: "browser_x": names starting with "browser_"/],
  ['tool', ['ok', 'not a function'], /^\[diosc\] tool: "ok": handler must be a function/],
  ['browserAdapter', ['nope'], /^\[diosc\] browserAdapter: The adapter must be an object/],
  ['browserAdapter', [{ read: 1 }], /^\[diosc\] browserAdapter: adapter.read must be a function/],
  ['browserAdapter', [{ intents: {} }], /^\[diosc\] browserAdapter: adapter.intents must be an array/],
  ['browserAdapter', [{ intents: [{ ...intent, name: 'has space' }] }], /intents\[0\].name must match/],
  ['browserAdapter', [{ intents: [intent, intent] }], /intents\[1\].name "apply" is used twice/],
  [
    'browserAdapter',
    [{ intents: [{ ...intent, description: '' }] }],
    /intents\[0\] \("apply"\) needs a description/,
  ],
  [
    'browserAdapter',
    [{ intents: [{ ...intent, schema: 'object' }] }],
    /\("apply"\).schema must be a JSON Schema object/,
  ],
  [
    'browserAdapter',
    [{ intents: [{ ...intent, handler: undefined }] }],
    /\("apply"\).handler must be a function/,
  ],
  [
    'browserAdapter',
    [{ intents: [{ ...intent, approval: { severity: 'critical' } }] }],
    /approval.severity must be "low", "medium" or "high"/,
  ],
  [
    'browserAdapter',
    [{ intents: [{ ...intent, approval: { severity: 'low', diff: [] } }] }],
    /approval.diff must be a function/,
  ],
  ['setNavigationHandler', ['/home'], /^\[diosc\] setNavigationHandler: the handler must be a function/],
  ['consensusView', ['', () => 'x'], /^\[diosc\] consensusView: the first argument is the tool/],
  ['consensusView', ['apply', '<b>x</b>'], /^\[diosc\] consensusView: "apply": the view must be a function/],
  ['open', [], /^\[diosc\] open: the kit is not started: call diosc\('init'/],
  ['close', [], /^\[diosc\] close: the kit is not started/],
  ['send', ['hello'], /^\[diosc\] send: the kit is not started/],
  ['send', [''], /^\[diosc\] send: text must be a non-empty string/],
  ['send', ['x'.repeat(16_001)], /^\[diosc\] send: text must be a non-empty string of at most 16,000/],
  [
    'on',
    ['click', () => {}],
    /^\[diosc\] on: unknown event "click"; the events are message, tool, consensus, error/,
  ],
  ['on', ['message', 'handler'], /^\[diosc\] on: "message": the listener must be a function/],
  ['destroy', [true], /^\[diosc\] destroy: takes no arguments/],
  ['launch', [], /^\[diosc\] unknown command "launch"; the commands are init, tool, browserAdapter/],
];

describe('diosc() commands', () => {
  it.each(
    CASES.map(
      ([command, args, message]) =>
        [`${command} ${JSON.stringify(args).slice(0, 60)}`, command, args, message] as const,
    ),
  )('%s is a clear console error, not a silent no-op', (_name, command, args, message) => {
    const { diosc, kit, errors } = newKit();
    const result = (diosc as (...a: unknown[]) => unknown)(command, ...args);
    expect(result).toBeUndefined();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(message);
    // Nothing was half-applied.
    expect(kit.session).toBeNull();
    expect(kit.tools.size).toBe(0);
    expect(kit.adapter.get()).toBeNull();
    expect(kit.navigationHandler).toBeNull();
    expect(kit.views.size).toBe(0);
    expect(document.querySelector('diosc-widget')).toBeNull();
  });

  it('refuses a second init until destroy, then starts again', () => {
    const { diosc, kit, errors } = startKit();
    const session = kit.session;
    diosc('init', HUB);
    expect(errors).toEqual([
      expect.stringMatching(/^\[diosc\] init: the kit is already started; call diosc\('destroy'\)/),
    ]);
    expect(kit.session).toBe(session);
    diosc('destroy');
    expect(kit.session).toBeNull();
    expect(document.querySelector('diosc-widget')).toBeNull();
  });

  it('registers, overrides and removes raw tools; the registry follows', async () => {
    const { diosc, hub } = startKit();
    diosc('tool', 'highlight_row', () => ({ ok: true }));
    diosc('tool', 'read_page', () => ({ mine: true }));
    await diosc('send', 'first');
    diosc('tool', 'highlight_row', null);
    await hub.idle();
    await diosc('send', 'second');
    const registries = hub.requests
      .filter((r) => r.path.endsWith('/messages'))
      .map((r) => (r.body as { registry: { tools: string[] } }).registry.tools);
    expect(registries).toEqual([
      ['navigate', 'read_page', 'highlight_row'],
      ['navigate', 'read_page'],
    ]);
  });

  it('open and close drive the panel; on returns an unsubscribe', async () => {
    const { diosc, hub } = startKit();
    const root = () => document.querySelector('diosc-widget')!.shadowRoot!;
    await eventually(() => expect(root().querySelector('.launcher')).not.toBeNull());
    expect(root().querySelector('.panel')).toBeNull();
    diosc('open');
    await eventually(() => expect(root().querySelector('.panel')).not.toBeNull());
    diosc('close');
    await eventually(() => expect(root().querySelector('.panel')).toBeNull());
    const seen: string[] = [];
    const off = diosc('on', 'message', (message) => seen.push(message.text))!;
    off();
    await diosc('send', 'hi');
    await hub.idle();
    expect(seen).toEqual([]);
  });

  it('mounts where asked, with the theme applied', async () => {
    document.body.innerHTML = '<aside id="help"></aside>';
    startKit({
      init: { mount: '#help', theme: { '--diosc-accent': 'rgb(1, 2, 3)' }, locale: 'es', open: true },
    });
    const widget = document.querySelector('#help > diosc-widget') as HTMLElement;
    expect(widget).not.toBeNull();
    expect(widget.style.getPropertyValue('--diosc-accent')).toBe('rgb(1, 2, 3)');
    await eventually(() =>
      expect(widget.shadowRoot!.querySelector('.launcher')!.getAttribute('aria-label')).toBe(
        'Cerrar el asistente',
      ),
    );
  });
});
