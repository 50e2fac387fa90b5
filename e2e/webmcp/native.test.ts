import { createCallGate, OWNER_PASSWORD, startTestServer, type TestServer } from '@diosc/server/testing';
import type { Browser, CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordCdpEvents } from '../support/cdp-events.js';
import { CHROMIUM_PATH, launchChromium } from '../support/chromium.js';
import { type NativeCheck, type NativeReport, writeNativeReport } from './support/report.js';
import { addTestPage, bundleTestPage } from './support/test-page.js';

/**
 * Native WebMCP in Debian Chromium, driven from the agent side through the DevTools `WebMCP` domain
 * against the real server. Every check is written to test-results/native-webmcp.md with the browser version (`npm run docs:refresh` copies it into docs/).
 */

const SELECTION = [{ collection: 'notes', functions: ['items_list', 'item_read', 'item_write'] }];
const TOOLS = ['collections_list', 'items_list', 'item_read', 'item_write'];
const WRITE = {
  collection: 'notes',
  item: 'webmcp-native',
  requestId: 'webmcp-native-0001',
  ifNoneMatch: '*',
  content: { title: 'Native WebMCP', body: 'Written by the browser agent after review.' },
};

type Harness = {
  supported(): boolean;
  signIn(email: string, password: string): Promise<number>;
  enable(selection: unknown): Promise<unknown>;
  sync(): Promise<{ status: string; reason?: string; tools: string[] }>;
  disable(): Promise<{ status: string }>;
  signOut(): Promise<{ status: string }>;
  operation(name: string, input: unknown): Promise<unknown>;
  disconnectSource(id: string): Promise<number>;
  state(): { status: string; reason?: string; tools: string[] };
  activity(): Record<string, unknown>[];
  pageshows(): boolean[];
  states(): { status: string }[];
  reviews(): string[];
};
const harness = (page: Page) =>
  page.evaluateHandle(() => (window as unknown as { dioscTest: Harness }).dioscTest);

let server: TestServer;
/** Holds chosen calls inside the server (the app's `holdCall` seam), to act while they are in flight. */
const gate = createCallGate();
let browser: Browser;
let page: Page;
let cdp: CDPSession;
let events: ReturnType<typeof recordCdpEvents>;
let frameId = '';
/** `DIOSC_NATIVE_WEBMCP_FLAG=off` launches without the flag, to see the "API missing" report path. */
const withFlag = process.env.DIOSC_NATIVE_WEBMCP_FLAG !== 'off';
const report: NativeReport = {
  date: new Date().toISOString(),
  browser: 'not launched',
  executable: CHROMIUM_PATH,
  flag: withFlag ? '--enable-features=WebMCP' : '(none)',
  apiPresent: null,
  checks: [],
};

/** An `it` whose outcome is also recorded for the report; `detail` returns what was observed. */
function check(name: string, run: () => Promise<string>) {
  it(name, async () => {
    const entry: NativeCheck = { check: name, result: 'fail', detail: '' };
    report.checks.push(entry);
    if (report.apiPresent === false) {
      entry.detail = 'not run: the browser has no document.modelContext';
      throw new Error(entry.detail);
    }
    try {
      entry.detail = await run();
      entry.result = 'pass';
    } catch (error) {
      entry.detail = error instanceof Error ? error.message.split('\n')[0]! : String(error);
      throw error;
    }
  });
}

async function call(toolName: string, input: unknown) {
  const { invocationId } = (await cdp.send(
    'WebMCP.invokeTool' as never,
    { frameId, toolName, input } as never,
  )) as {
    invocationId: string;
  };
  return invocationId;
}

const responded = (invocationId: string) =>
  events.wait('WebMCP.toolResponded', (p) => p.invocationId === invocationId) as Promise<{
    status: string;
    output?: { structuredContent?: Record<string, unknown> };
    errorText?: string;
    exception?: { description?: string };
  }>;

/** What the agent can read of a failure: Chromium puts a thrown error in `exception`, not `errorText`. */
const failureOf = (answer: { errorText?: string; exception?: { description?: string } }) =>
  `${answer.errorText ?? ''} ${answer.exception?.description ?? ''}`;

/** Waits until every tool in `names` was reported by `event` (after `since`), across one or more events. */
async function toolsReported(
  event: 'WebMCP.toolsAdded' | 'WebMCP.toolsRemoved',
  names: string[],
  since: number,
) {
  const reported = new Map<string, Record<string, unknown>>();
  while (names.some((name) => !reported.has(name))) {
    const params = await events.wait(
      event,
      (p) => (p.tools as { name: string }[]).some((t) => names.includes(t.name) && !reported.has(t.name)),
      since,
    );
    for (const tool of params.tools as Record<string, unknown>[]) reported.set(String(tool.name), tool);
  }
  return reported;
}

async function itemRows(item: string) {
  return server.store.db
    .selectFrom('items')
    .selectAll()
    .where('account_id', '=', server.accountId)
    .where('collection_id', '=', 'notes')
    .where('id', '=', item)
    .execute();
}

describe('native WebMCP in Debian Chromium', () => {
  beforeAll(async () => {
    const script = await bundleTestPage();
    server = await startTestServer({
      realClock: true,
      app: { holdCall: gate.hold },
      configure: (app) => addTestPage(app, script),
    });
    browser = await launchChromium({ webmcp: withFlag, backForwardCache: true });
    report.browser = `Chromium ${browser.version()}`;
    page = await browser.newPage();
    cdp = await page.context().newCDPSession(page);
    events = recordCdpEvents(cdp, ['WebMCP.toolsAdded', 'WebMCP.toolsRemoved', 'WebMCP.toolResponded']);
    await page.goto(`${server.url}/__test/webmcp`);
    await page.waitForFunction(() => 'dioscTest' in window);
    await cdp.send('WebMCP.enable' as never);
  });

  afterAll(async () => {
    gate.releaseAll();
    writeNativeReport(report);
    await browser?.close();
    await server?.close();
  });

  check('document.modelContext.registerTool exists', async () => {
    report.apiPresent = await (await harness(page)).evaluate((h) => h.supported());
    if (!report.apiPresent)
      throw new Error(`document.modelContext.registerTool is missing (flag ${report.flag})`);
    return `present on a http://127.0.0.1 page with ${report.flag}`;
  });

  check('tools appear in WebMCP.toolsAdded with the right annotations', async () => {
    const h = await harness(page);
    await h.evaluate((t, password) => t.signIn('owner@localhost', password), OWNER_PASSWORD);
    await h.evaluate((t, selection) => t.enable(selection), SELECTION);
    const state = await h.evaluate((t) => t.sync());
    expect(state).toMatchObject({ status: 'registered', tools: TOOLS });
    const added = await toolsReported('WebMCP.toolsAdded', TOOLS, 0);
    expect([...added.keys()].sort()).toEqual([...TOOLS].sort());
    const read = added.get('items_list')!;
    const write = added.get('item_write')!;
    expect(read.annotations).toMatchObject({ readOnly: true, untrustedContent: true, consequential: false });
    expect(write.annotations).toMatchObject({
      readOnly: false,
      untrustedContent: false,
      consequential: true,
    });
    expect(JSON.stringify(write.inputSchema)).toContain('requestId');
    frameId = String(read.frameId);
    return `toolsAdded: ${[...added.keys()].join(', ')}; items_list ${JSON.stringify(read.annotations)}; item_write ${JSON.stringify(write.annotations)}`;
  });

  check('invokeTool items_list returns the server data (content + structuredContent)', async () => {
    const answer = await responded(await call('items_list', { collection: 'notes' }));
    expect(answer.status).toBe('Completed');
    const direct = (await (
      await harness(page)
    ).evaluate((t) => t.operation('items_list', { collection: 'notes' }))) as {
      result: unknown;
    };
    expect(answer.output?.structuredContent).toEqual(direct.result);
    const rows = await server.store.db
      .selectFrom('items')
      .select('id')
      .where('account_id', '=', server.accountId)
      .where('collection_id', '=', 'notes')
      .execute();
    const items = answer.output?.structuredContent?.items as { id: string }[];
    expect(items.map((i) => i.id).sort()).toEqual(rows.map((r) => r.id).sort());
    return `Completed; ${items.length} notes items, equal to POST /api/owner/operations/items_list and the items table`;
  });

  check('a write waits for review, lands once after a trusted click', async () => {
    const invocation = await call('item_write', WRITE);
    await page.waitForSelector('#review[open]');
    expect(await page.textContent('#review-summary')).toBe('item_write create notes/webmcp-native');
    expect(await itemRows('webmcp-native')).toHaveLength(0);
    await page.click('#accept');
    const answer = await responded(invocation);
    expect(answer.status).toBe('Completed');
    expect(answer.output?.structuredContent).toMatchObject({ collection: 'notes', created: true });
    const rows = await itemRows('webmcp-native');
    expect(rows).toHaveLength(1);
    expect(rows[0]!.content).toBe(WRITE.content.body);
    const used = await server.store.db
      .selectFrom('review_receipts')
      .select(['used_at', 'acknowledged_at'])
      .where('account_id', '=', server.accountId)
      .where('function_name', '=', 'item_write')
      .execute();
    expect(used).toHaveLength(1);
    expect(used[0]!.acknowledged_at).not.toBeNull();
    expect(used[0]!.used_at).not.toBeNull();
    const receipts = await server.store.db
      .selectFrom('receipts')
      .select('status')
      .where('request_id', '=', WRITE.requestId)
      .execute();
    expect(receipts).toEqual([{ status: 'committed' }]);
    return 'review dialog shown, nothing written before the click; after page.click: Completed, 1 item row, 1 used review receipt, 1 committed request receipt';
  });

  check('cancelInvocation during review yields Canceled and writes nothing', async () => {
    const input = { ...WRITE, item: 'webmcp-cancelled', requestId: 'webmcp-native-0002' };
    const invocation = await call('item_write', input);
    await page.waitForSelector('#review[open]');
    await cdp.send('WebMCP.cancelInvocation' as never, { invocationId: invocation } as never);
    const answer = await responded(invocation);
    expect(answer.status).toBe('Canceled');
    await page.waitForSelector('#review:not([open])', { state: 'attached' });
    const activity = await (await harness(page)).evaluate((t) => t.activity().at(-1));
    expect(activity).toMatchObject({ tool: 'item_write', outcome: 'cancelled', requestId: input.requestId });
    expect(await itemRows('webmcp-cancelled')).toHaveLength(0);
    const executed = await server.store.db
      .selectFrom('receipts')
      .select('request_id')
      .where('request_id', '=', input.requestId)
      .execute();
    expect(executed).toHaveLength(0);
    return 'Canceled; the review dialog closed on the abort signal; no item row, no request receipt';
  });

  check(
    'repeating the write with the same request ID replays it, with no review: still one write',
    async () => {
      const before = await itemRows('webmcp-native');
      const h = await harness(page);
      const reviewed = await h.evaluate((t) => t.reviews().length);
      const invocation = await call('item_write', WRITE);
      const answer = await responded(invocation);
      // Already committed: nothing to decide, so no review was asked for.
      expect(await h.evaluate((t) => t.reviews().length)).toBe(reviewed);
      expect(await page.locator('#review[open]').count()).toBe(0);
      expect(answer.status).toBe('Completed');
      expect(answer.output?.structuredContent).toMatchObject({ collection: 'notes', created: true });
      const after = await itemRows('webmcp-native');
      expect(after).toHaveLength(1);
      expect(after[0]!.version).toBe(before[0]!.version);
      expect(after[0]!.updated_at).toBe(before[0]!.updated_at);
      return `Completed with the stored result and no review; item version ${after[0]!.version} unchanged, 1 row`;
    },
  );

  check('going offline removes the tools; back online registers them again', async () => {
    const h = await harness(page);
    const since = events.seen.length;
    await page.context().setOffline(true);
    await page.waitForFunction(() => document.querySelector('#state')?.textContent === 'offline');
    const removed = [...(await toolsReported('WebMCP.toolsRemoved', TOOLS, since)).keys()];
    const again = events.seen.length;
    await page.context().setOffline(false);
    await page.waitForFunction(() => document.querySelector('#state')?.textContent === 'registered');
    const added = [...(await toolsReported('WebMCP.toolsAdded', TOOLS, again)).keys()];
    expect((await h.evaluate((t) => t.state())).status).toBe('registered');
    const answer = await responded(await call('items_list', { collection: 'notes' }));
    expect(answer.status).toBe('Completed');
    return `offline → toolsRemoved ${removed.length}; online → toolsAdded ${added.length}, items_list Completed`;
  });

  check('leaving the page removes the tools; back from the back/forward cache they return', async () => {
    const since = events.seen.length;
    await page.goto(`${server.url}/healthz`);
    // A restore from the cache fires no `load`: wait for the document, then for the adapter.
    await page.goBack({ waitUntil: 'commit' });
    await page.waitForFunction(() => document.querySelector('#state')?.textContent === 'registered');
    const h = await harness(page);
    const restored = (await h.evaluate((t) => t.pageshows())).at(-1);
    expect(restored).toBe(true);
    const states = (await h.evaluate((t) => t.states().map((state) => state.status))).slice(-2);
    expect(states).toEqual(['disabled', 'registered']);
    const added = [...(await toolsReported('WebMCP.toolsAdded', TOOLS, since)).keys()];
    const answer = await responded(await call('items_list', { collection: 'notes' }));
    expect(answer.status).toBe('Completed');
    return `pagehide → ${states[0]}; pageshow (persisted ${restored}) → ${states[1]}, toolsAdded ${added.length}, items_list Completed`;
  });

  check('a refusal is an error with the stable code, not HTML', async () => {
    const answer = await responded(await call('items_list', { collection: 'drive' }));
    expect(answer.status).toBe('Error');
    const text = failureOf(answer);
    expect(text).toContain('not_granted');
    expect(text).not.toMatch(/<[a-z]/i);
    return `Error; errorText ${JSON.stringify(answer.errorText ?? '')}; exception ${JSON.stringify(answer.exception?.description?.split('\n')[0] ?? '')}`;
  });

  check(
    'an approval field in the arguments approves nothing: refused, no review, nothing written',
    async () => {
      const details: string[] = [];
      for (const extra of [
        { approved: true },
        { confirm: true },
        { reviewed: true },
        { receiptId: 'x'.repeat(36) },
      ]) {
        const input = { ...WRITE, item: 'webmcp-smuggled', requestId: 'webmcp-smuggle-01', ...extra };
        const answer = await responded(await call('item_write', input));
        expect(answer.status).toBe('Error');
        expect(failureOf(answer)).toContain('invalid_input');
        details.push(`${Object.keys(extra)[0]} → ${answer.status} invalid_input`);
      }
      expect(await page.locator('#review[open]').count()).toBe(0);
      expect(await itemRows('webmcp-smuggled')).toHaveLength(0);
      return `${details.join('; ')}; no review dialog opened, no item row`;
    },
  );

  check(
    'a review ticket copied into the arguments is reviewed like any other; nothing runs before the owner decides',
    async () => {
      const ticket = await server.store.db
        .selectFrom('review_receipts')
        .select(['id', 'args_digest'])
        .where('used_at', 'is not', null)
        .executeTakeFirstOrThrow();
      const input = {
        ...WRITE,
        item: 'webmcp-copied-ticket',
        requestId: ticket.id,
        content: {
          title: 'approved: true',
          body: JSON.stringify({ receiptId: ticket.id, digest: ticket.args_digest, decision: 'accept' }),
        },
      };
      const invocation = await call('item_write', input);
      await page.waitForSelector('#review[open]');
      expect(await itemRows('webmcp-copied-ticket')).toHaveLength(0);
      await page.click('#reject');
      const answer = await responded(invocation);
      expect(answer.status).toBe('Error');
      expect(failureOf(answer)).toContain('declined');
      expect(await itemRows('webmcp-copied-ticket')).toHaveLength(0);
      return 'the used ticket as requestId and its digest in the content: review dialog shown, nothing written; rejected → Error declined';
    },
  );

  check(
    'source disconnect: a read in flight and every later call answer source_revoked; the tools re-sync',
    async () => {
      const h = await harness(page);
      const mixed = [
        { collection: 'notes', functions: ['items_list'] },
        { collection: 'drive', functions: ['items_list', 'item_read'] },
      ];
      await h.evaluate((t, selection) => t.enable(selection), mixed);
      const since = events.seen.length;
      expect(await h.evaluate((t) => t.sync())).toMatchObject({
        status: 'registered',
        tools: ['collections_list', 'items_list', 'item_read'],
      });
      await toolsReported('WebMCP.toolsAdded', ['collections_list', 'items_list', 'item_read'], since);
      const before = await h.evaluate((t) => t.operation('items_list', { collection: 'notes' }));

      // A read of drive, authorized and held inside the server, while the owner disconnects drive.
      const held = gate.next({ channel: 'browser', name: 'item_read' });
      const inFlight = await call('item_read', { collection: 'drive', item: 'roadmap' });
      await held.reached;
      const resynced = events.seen.length;
      expect(await h.evaluate((t) => t.disconnectSource('drive'))).toBe(200);
      held.release();
      const late = await responded(inFlight);
      expect(late.status).toBe('Error');
      expect(failureOf(late)).toContain('source_revoked');

      // That answer made the adapter load the tools again: item_read was drive's alone.
      await toolsReported('WebMCP.toolsRemoved', ['item_read'], resynced);
      await page.waitForFunction(() => document.querySelector('#state')?.textContent === 'registered');
      await toolsReported('WebMCP.toolsAdded', ['collections_list', 'items_list'], resynced);
      expect((await h.evaluate((t) => t.state())).tools).toEqual(['collections_list', 'items_list']);
      const list = await responded(await call('items_list', { collection: 'drive' }));
      expect(list.status).toBe('Error');
      expect(failureOf(list)).toContain('source_revoked');
      const listed = await responded(await call('collections_list', {}));
      const rows = listed.output?.structuredContent?.collections as Record<string, unknown>[];
      expect(rows.find((row) => row.id === 'drive')).toMatchObject({ functions: [], state: 'disconnected' });
      const notes = await responded(await call('items_list', { collection: 'notes' }));
      expect(notes.status).toBe('Completed');
      // Nothing else changed: the notes, and the selection as the owner gave it.
      expect(await h.evaluate((t) => t.operation('items_list', { collection: 'notes' }))).toEqual(before);
      const selection = await server.store.db
        .selectFrom('app_connections')
        .select('grant_json')
        .where('transport', '=', 'browser')
        .where('revoked_at', 'is', null)
        .executeTakeFirstOrThrow();
      expect(JSON.parse(selection.grant_json)).toEqual([...mixed].reverse());

      // Back to the suite's selection for the checks that follow.
      await h.evaluate((t, selection) => t.enable(selection), SELECTION);
      expect(await h.evaluate((t) => t.sync())).toMatchObject({ status: 'registered', tools: TOOLS });
      return 'held item_read(drive) → disconnect → Error source_revoked; toolsRemoved item_read, re-registered collections_list, items_list; items_list(drive) Error source_revoked; collections_list shows drive { functions: [], state: disconnected }; notes unchanged';
    },
  );

  check('disabling removes the tools (WebMCP.toolsRemoved)', async () => {
    const since = events.seen.length;
    const state = await (await harness(page)).evaluate((t) => t.disable());
    expect(state.status).toBe('disabled');
    const removed = [...(await toolsReported('WebMCP.toolsRemoved', TOOLS, since)).keys()];
    expect(removed.sort()).toEqual([...TOOLS].sort());
    // The agent can no longer reach the tool at all.
    const late = await call('items_list', { collection: 'notes' }).then(
      () => 'an invocation',
      (error: Error) => error.message.replace(/^.*?: /, ''),
    );
    expect(late).toContain('Tool not found');
    return `state disabled; toolsRemoved: ${[...removed].join(', ')}; a later invokeTool: ${late}`;
  });

  check('sign-out removes the tools and revokes the server-side access', async () => {
    const h = await harness(page);
    await h.evaluate((t, selection) => t.enable(selection), SELECTION);
    expect((await h.evaluate((t) => t.sync())).status).toBe('registered');
    const since = events.seen.length;
    const state = await h.evaluate((t) => t.signOut());
    expect(state.status).toBe('expired-session');
    const removed = [...(await toolsReported('WebMCP.toolsRemoved', TOOLS, since)).keys()];
    const live = await server.store.db
      .selectFrom('app_connections')
      .select('id')
      .where('account_id', '=', server.accountId)
      .where('transport', '=', 'browser')
      .where('revoked_at', 'is', null)
      .execute();
    expect(live).toEqual([]);
    return `state expired-session; toolsRemoved ${removed.length}; no unrevoked browser access row left`;
  });

  check(
    'release gate off (DIOSC_BROWSER_TOOLS=off): feature_disabled, nothing registered, a seventh state',
    async () => {
      const script = await bundleTestPage();
      const gated = await startTestServer({
        realClock: true,
        config: { browserAccess: false },
        configure: (app) => addTestPage(app, script),
      });
      const other = await browser.newPage();
      try {
        const otherCdp = await other.context().newCDPSession(other);
        const otherEvents = recordCdpEvents(otherCdp, ['WebMCP.toolsAdded']);
        await other.goto(`${gated.url}/__test/webmcp`);
        await other.waitForFunction(() => 'dioscTest' in window);
        await otherCdp.send('WebMCP.enable' as never);
        const h = await harness(other);
        await h.evaluate((t, password) => t.signIn('owner@localhost', password), OWNER_PASSWORD);
        expect(await h.evaluate((t, selection) => t.enable(selection), SELECTION)).toEqual({
          error: 'feature_disabled',
        });
        const state = await h.evaluate((t) => t.sync());
        expect(state).toMatchObject({ status: 'feature-disabled', tools: [] });
        expect(await other.textContent('#state')).toBe('feature-disabled');
        expect(otherEvents.seen).toEqual([]);
        const rows = await gated.store.db.selectFrom('app_connections').select('id').execute();
        expect(rows).toEqual([]);
        // The page's own owner calls still work: only browser tools are gated.
        const own = (await h.evaluate((t) => t.operation('items_list', { collection: 'notes' }))) as {
          result?: unknown;
        };
        expect(own.result).toBeDefined();
        return 'enable → feature_disabled; sync → state feature-disabled, no WebMCP.toolsAdded, no browser-access row; owner operations answer';
      } finally {
        await other.close();
        await gated.close();
      }
    },
  );

  check('with Permissions-Policy: tools=() registration fails visibly', async () => {
    const blocked = await browser.newPage();
    try {
      await blocked.goto(`${server.url}/__test/webmcp?tools=none`);
      await blocked.waitForFunction(() => 'dioscTest' in window);
      const h = await harness(blocked);
      await h.evaluate((t, password) => t.signIn('owner@localhost', password), OWNER_PASSWORD);
      await h.evaluate((t, selection) => t.enable(selection), SELECTION);
      const state = await h.evaluate((t) => t.sync());
      expect(state.status).toBe('failure');
      expect(state.reason).toContain('NotAllowedError');
      expect(state.tools).toEqual([]);
      expect(await blocked.textContent('#state')).toBe('failure');
      return `state failure: ${state.reason}`;
    } finally {
      await blocked.close();
    }
  });
});
