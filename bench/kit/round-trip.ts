import type { HubTestServer, ScriptedCall, ScriptedStep } from '@diosc/server/testing';
import type { Browser, Page } from 'playwright-core';

export interface ClientTiming {
  /** Model call to the next model call, through the hub and the page. */
  roundTrip: { p50Ms: number; p95Ms: number; samples: number };
  /** In the page: the stream chunk with the interrupt to the answer's fetch. */
  inPage: { p50Ms: number; p95Ms: number; samples: number };
  maxAnswerBytes: number;
}

const summary = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN;
  return { p50Ms: at(0.5), p95Ms: at(0.95), samples: sorted.length };
};

/** Tool results since the visitor's last message: how many round trips this turn has made. */
function roundsSoFar(call: ScriptedCall): number {
  const lastUser = call.prompt.findLastIndex((message) => message.role === 'user');
  return call.prompt.slice(lastUser + 1).filter((message) => message.role === 'tool').length;
}

/**
 * Round trips of a raw browser tool: the scripted model calls `highlight_row` `rounds` times a turn,
 * the kit's page and a bare page take turns (each in its own context, brought to the front — a
 * background tab is throttled). Timed at the model (whole round trip) and inside each page.
 */
export async function measureRoundTrip(options: {
  browser: Browser;
  server: HubTestServer;
  round: { script: (call: ScriptedCall) => ScriptedStep };
  rounds: number;
  turns: number;
}): Promise<{ kit: ClientTiming; bare: ClientTiming; addedP50Ms: number }> {
  const { browser, server, rounds, turns } = options;
  const origin = server.url;
  const assistant = await server.createAssistant({
    name: 'Bench',
    model: { provider: 'scripted', id: 'test' },
    allowedOrigins: [origin],
    browserTools: [
      {
        name: 'highlight_row',
        description: 'Highlight a row.',
        inputSchema: { type: 'object', properties: { id: { type: 'string' } } },
      },
    ],
    limits: { maxStepsPerTurn: 50, messagesPerMinute: 1_000 },
  });
  const contexts = [await browser.newContext(), await browser.newContext()];
  const pages = { kit: await contexts[0]!.newPage(), bare: await contexts[1]!.newPage() };
  const gaps = { kit: [] as number[], bare: [] as number[] };
  const bytes = { kit: [] as number[], bare: [] as number[] };
  let current: 'kit' | 'bare' = 'kit';
  let last = 0;
  let finished: () => void = () => {};
  options.round.script = (call) => {
    const now = performance.now();
    const done = roundsSoFar(call);
    if (done > 0) gaps[current].push(now - last);
    last = now;
    if (done < rounds) return { toolCalls: [{ toolName: 'highlight_row', input: { id: String(done) } }] };
    setTimeout(() => finished(), 50);
    return { text: 'done' };
  };
  for (const name of ['kit', 'bare'] as const)
    pages[name].on('request', (request) => {
      if (request.url().endsWith('/answer')) bytes[name].push(Buffer.byteLength(request.postData() ?? ''));
    });
  await pages.kit.goto(`${origin}/bench/kit-page?pk=${assistant.publishableKey}`);
  await pages.kit.waitForFunction(() => !(window as unknown as { diosc: { q?: unknown } }).diosc.q);
  await pages.bare.goto(`${origin}/bench/bare`);
  await pages.bare.waitForFunction(() => 'bareClient' in window);

  const turn = async (client: 'kit' | 'bare', page: Page) => {
    current = client;
    await page.bringToFront();
    const ended = new Promise<void>((resolve) => (finished = resolve));
    if (client === 'kit')
      // The previous turn may still be closing (its last step was the model's text): send until accepted.
      await page.evaluate(async () => {
        const diosc = (window as unknown as { diosc: (...a: unknown[]) => Promise<boolean> }).diosc;
        while (!(await diosc('send', 'go'))) await new Promise((resolve) => setTimeout(resolve, 20));
      });
    else
      await page.evaluate(
        ([hub, pk]) =>
          (window as unknown as { bareClient: { run(h: string, p: string): Promise<void> } }).bareClient.run(
            hub!,
            pk!,
          ),
        [origin, assistant.publishableKey],
      );
    await ended;
  };
  const resetMarks = () =>
    Promise.all(
      Object.values(pages).map((page) =>
        page.evaluate(() => {
          const marks = (window as unknown as { answerMarks: { interruptAt: number[]; answerAt: number[] } })
            .answerMarks;
          marks.interruptAt.length = 0;
          marks.answerAt.length = 0;
        }),
      ),
    );
  // One warm-up turn each, not counted.
  await turn('kit', pages.kit);
  await turn('bare', pages.bare);
  gaps.kit.length = 0;
  gaps.bare.length = 0;
  await resetMarks();
  for (let i = 0; i < turns; i++) {
    await turn('kit', pages.kit);
    await turn('bare', pages.bare);
  }
  const inPage = async (page: Page) => {
    const marks = await page.evaluate(
      () => (window as unknown as { answerMarks: { interruptAt: number[]; answerAt: number[] } }).answerMarks,
    );
    // Each answer against the newest interrupt chunk before it.
    return marks.answerAt.flatMap((at) => {
      const before = marks.interruptAt.filter((mark) => mark <= at).at(-1);
      return before === undefined ? [] : [at - before];
    });
  };
  const timing = async (name: 'kit' | 'bare'): Promise<ClientTiming> => ({
    roundTrip: summary(gaps[name]),
    inPage: summary(await inPage(pages[name])),
    maxAnswerBytes: Math.max(...bytes[name]),
  });
  const kit = await timing('kit');
  const bare = await timing('bare');
  for (const context of contexts) await context.close();
  console.log(
    `round trip p50: kit ${kit.roundTrip.p50Ms.toFixed(2)} ms, bare ${bare.roundTrip.p50Ms.toFixed(2)} ms; in the page: kit ${kit.inPage.p50Ms.toFixed(2)} ms, bare ${bare.inPage.p50Ms.toFixed(2)} ms`,
  );
  return { kit, bare, addedP50Ms: kit.inPage.p50Ms - bare.inPage.p50Ms };
}
