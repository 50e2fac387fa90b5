import { isPlainObject } from '@diosc/protocol';
import { runBrowserCall } from '../browser-calls/run-browser-call.js';
import { createTranslator, LOCALES, pickLocale } from '../i18n/translator.js';
import { useTrustedTypesPolicy } from '../pinned-script/load-pinned-script.js';
import { startSession } from '../session/kit-session.js';
import type { InitOptions } from '../types.js';
import { loadWebMcpBridge } from '../webmcp/load-bridge.js';
import { mountWidget } from '../widget/mount-widget.js';
import { type Command, expectArgs, invalid } from './command.js';

const KEYS = [
  'hubUrl',
  'publishableKey',
  'identity',
  'locale',
  'theme',
  'mount',
  'webmcp',
  'open',
  'fetch',
  'trustedTypes',
];
const USAGE =
  "diosc('init', { hubUrl, publishableKey, identity?, locale?, theme?, mount?, webmcp?, open?, trustedTypes? })";

function checkOptions(value: unknown): InitOptions {
  if (!isPlainObject(value)) throw invalid(`needs an options object: ${USAGE}`);
  const unknown = Object.keys(value).filter((key) => !KEYS.includes(key));
  if (unknown.length > 0)
    throw invalid(`unknown option(s) ${unknown.join(', ')}; the options are ${KEYS.join(', ')}`);
  const { hubUrl, publishableKey, identity, locale, theme, mount, webmcp, open, fetch, trustedTypes } = value;
  if (typeof hubUrl !== 'string' || !/^https?:\/\/[^/]/.test(hubUrl))
    throw invalid('hubUrl must be the hub\'s http(s) URL, e.g. "https://hub.example"');
  if (typeof publishableKey !== 'string' || !/^pk_[A-Za-z0-9_-]{8,128}$/.test(publishableKey))
    throw invalid('publishableKey must be the assistant\'s publishable key ("pk_…")');
  if (identity !== undefined && (typeof identity !== 'string' || identity === ''))
    throw invalid('identity must be the signed identity token (a string)');
  if (
    locale !== undefined &&
    (typeof locale !== 'string' || !(LOCALES as readonly string[]).includes(locale.slice(0, 2).toLowerCase()))
  )
    throw invalid(`locale must be one of ${LOCALES.join(', ')}`);
  if (theme !== undefined) {
    if (!isPlainObject(theme))
      throw invalid('theme must be an object of CSS custom properties, e.g. { "--diosc-accent": "#0b6" }');
    for (const [key, css] of Object.entries(theme))
      if (!key.startsWith('--diosc-') || typeof css !== 'string')
        throw invalid(`theme.${key}: only "--diosc-*" properties with string values`);
  }
  if (mount !== undefined && typeof mount !== 'string' && !(mount instanceof Element))
    throw invalid('mount must be an element or a CSS selector');
  if (typeof mount === 'string' && !document.querySelector(mount))
    throw invalid(`mount: no element matches "${mount}"`);
  for (const [key, flag] of [
    ['webmcp', webmcp],
    ['open', open],
  ] as const)
    if (flag !== undefined && typeof flag !== 'boolean') throw invalid(`${key} must be true or false`);
  if (fetch !== undefined && typeof fetch !== 'function') throw invalid('fetch must be a fetch function');
  if (
    trustedTypes !== undefined &&
    typeof (trustedTypes as { createScriptURL?: unknown } | null)?.createScriptURL !== 'function'
  )
    throw invalid('trustedTypes must be a Trusted Types policy with createScriptURL');
  return value as unknown as InitOptions;
}

/** `diosc('init', options)`: connects to the hub, mounts the widget, resumes what a reload left pending. */
export const init: Command = (kit, args) => {
  expectArgs(args, 1, USAGE);
  if (kit.session)
    throw invalid("the kit is already started; call diosc('destroy') before starting it again");
  const options = checkOptions(args[0]);
  kit.options = options;
  useTrustedTypesPolicy(options.trustedTypes);
  kit.translator = createTranslator(pickLocale(options.locale));
  kit.session = startSession(kit, options);
  kit.open.set(options.open ?? false);
  mountWidget(kit);
  if (options.webmcp) startWebMcp(kit, options);
};

const NO_HOOKS = { beforeRun() {}, leavingPage() {} };

/** Loads the bridge (only pages that ask pay for it) and starts it unless the kit was destroyed meanwhile. */
function startWebMcp(kit: Parameters<Command>[0], options: InitOptions): void {
  loadWebMcpBridge().then(
    (start) => {
      if (kit.options === options) kit.stopWebMcp = start(kit, (call) => runBrowserCall(kit, call, NO_HOOKS));
    },
    (error: unknown) => console.error('[diosc] init: the WebMCP bridge could not start', error),
  );
}
