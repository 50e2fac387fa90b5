import { type BrowserInterrupt, INTERRUPT_ANSWER_MAX_BYTES, type InterruptAnswer } from '@diosc/protocol';
import { readSnapshot } from '../adapter/browser-adapter.js';
import type { HubClient } from '../hub-client/hub-client.js';
import { emit, type KitContext, pageRegistry } from '../kit-context.js';
import { errorCode, errorText, type Outcome } from './browser-call.js';
import type { Journal } from './journal.js';
import { jsonBytes } from './json-value.js';
import { whenAdapter, withLock } from './page-ready.js';
import { runBrowserCall } from './run-browser-call.js';

export interface InterruptRunner {
  /** Runs an interrupt at most once (`resumed`: it was pending when this page started). */
  handle(interrupt: BrowserInterrupt, resumed?: boolean): void;
  /** The hub resolved it (answered elsewhere, timed out): an open approval is withdrawn. */
  resolved(interruptId: string): void;
  turnEnded(turnId: string): void;
  stop(): void;
}

export const uncertainMessage = (tool: string) =>
  `The page was reloaded or closed while "${tool}" was running, so whether it finished is unknown; it was not run again.`;

const withdrawn = () => new DOMException('The interrupt was resolved elsewhere.', 'AbortError');

/** The new view rides on a `navigate` answer, so the hub reconciles its registry mid-turn. */
async function withView(kit: KitContext, outcome: Outcome): Promise<InterruptAnswer> {
  const snapshot = await readSnapshot(kit.adapter.get());
  return { ...outcome, ...(snapshot ? { snapshot } : {}), registry: pageRegistry(kit) };
}

/** An answer the hub accepts: under the 64 KiB cap (a view is dropped first, then the result). */
function bounded(tool: string, answer: InterruptAnswer): InterruptAnswer {
  if (jsonBytes(answer) <= INTERRUPT_ANSWER_MAX_BYTES) return answer;
  if ('snapshot' in answer) {
    const { snapshot: _dropped, ...rest } = answer;
    if (jsonBytes(rest) <= INTERRUPT_ANSWER_MAX_BYTES) return rest;
  }
  const size = jsonBytes(answer);
  return {
    error: `The result of "${tool}" is ${size} bytes; the hub accepts at most ${INTERRUPT_ANSWER_MAX_BYTES}.`,
  };
}

/** Past its deadline the hub has answered the model itself; a result sent then is refused. */
const expired = (interrupt: BrowserInterrupt) => Date.parse(interrupt.expiresAt) <= Date.now();

const MAX_RETRY_PAUSE_MS = 5_000;

/** Backs off (0.25 s doubling up to 5 s), but ends at once when the browser comes back online. */
function retryPause(attempt: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      globalThis.removeEventListener?.('online', done);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, Math.min(250 * 2 ** attempt, MAX_RETRY_PAUSE_MS));
    globalThis.addEventListener?.('online', done);
    signal.addEventListener('abort', done);
  });
}

/**
 * Runs the hub's browser interrupts: claims each one (a Web Lock across tabs, plus the journal),
 * journals "started" before any handler runs, and answers with the result only. A page that died
 * mid-run answers `uncertain` from the next page instead of running the handler a second time.
 */
export function createInterruptRunner(kit: KitContext, client: HubClient, journal: Journal): InterruptRunner {
  const active = new Map<string, { turnId: string; controller: AbortController }>();
  const now = () => Date.now();

  const post = async (interrupt: BrowserInterrupt, answer: InterruptAnswer, signal: AbortSignal) => {
    journal.set(interrupt.id, { state: 'answered', tool: interrupt.tool, at: now(), answer });
    for (let attempt = 0; ; attempt++) {
      try {
        await client.call('answerInterrupt', { id: interrupt.id, body: answer });
        break;
      } catch (error) {
        const code = errorCode(error);
        // The tool ran: its result is kept and sent again until the hub has it — at once when the
        // browser is back online — for as long as the interrupt is waiting for it.
        if ((code === 'transport_failed' || code === 'internal') && !signal.aborted && !expired(interrupt)) {
          await retryPause(attempt, signal);
          continue;
        }
        // A withdrawn interrupt (timed out, its turn ended) refusing the late answer is expected.
        if (!signal.aborted) emit(kit, 'error', { code, message: errorText(error) });
        if (code === 'transport_failed') return;
        break;
      }
    }
    journal.set(interrupt.id, { state: 'done', tool: interrupt.tool, at: now() });
  };

  const answerFor = async (interrupt: BrowserInterrupt, resumed: boolean, signal: AbortSignal) => {
    const entry = journal.get(interrupt.id);
    if (entry?.state === 'done') return null;
    if (entry?.state === 'answered') return entry.answer;
    if (entry?.state === 'started') return { error: uncertainMessage(interrupt.tool), uncertain: true };
    if (entry?.state === 'leaving') {
      if (entry.hadAdapter) await whenAdapter(kit);
      return withView(kit, { result: entry.result });
    }
    if (resumed && interrupt.kind === 'intent') await whenAdapter(kit);
    const hadAdapter = kit.adapter.get() !== null;
    const outcome = await runBrowserCall(
      kit,
      {
        kind: interrupt.kind,
        tool: interrupt.tool,
        args: interrupt.args,
        ...(interrupt.severity ? { severity: interrupt.severity } : {}),
        interruptId: interrupt.id,
        signal,
      },
      {
        beforeRun: () => journal.set(interrupt.id, { state: 'started', tool: interrupt.tool, at: now() }),
        leavingPage: (result) =>
          journal.set(interrupt.id, {
            state: 'leaving',
            tool: interrupt.tool,
            at: now(),
            result,
            hadAdapter,
          }),
      },
    );
    return interrupt.kind === 'tool' && interrupt.tool === 'navigate' && 'result' in outcome
      ? withView(kit, outcome)
      : outcome;
  };

  return {
    handle(interrupt, resumed = false) {
      if (active.has(interrupt.id)) return;
      const controller = new AbortController();
      active.set(interrupt.id, { turnId: interrupt.turnId, controller });
      void withLock(`diosc-interrupt-${interrupt.id}`, async () => {
        try {
          const answer = await answerFor(interrupt, resumed, controller.signal);
          if (answer) await post(interrupt, bounded(interrupt.tool, answer), controller.signal);
        } catch (error) {
          // Withdrawn before anything ran (the approval was still open): nothing to answer.
          if (controller.signal.aborted) return;
          await post(interrupt, { error: errorText(error) }, controller.signal);
        }
      }).finally(() => active.delete(interrupt.id));
    },
    resolved(interruptId) {
      active.get(interruptId)?.controller.abort(withdrawn());
    },
    turnEnded(turnId) {
      for (const [, each] of active) if (each.turnId === turnId) each.controller.abort(withdrawn());
    },
    stop() {
      for (const [, each] of active) each.controller.abort(withdrawn());
    },
  };
}
