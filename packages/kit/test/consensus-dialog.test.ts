// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApprovalRequest, Decision } from '../src/consensus/consensus-broker.js';
import type { ConsensusDialog } from '../src/consensus/consensus-dialog.js';
import { createTranslator } from '../src/i18n/translator.js';
import { createKitContext, type KitContext } from '../src/kit-context.js';
import { attachKit } from '../src/widget/element-kit.js';
import { defineElements } from '../src/widget/mount-widget.js';

/**
 * The dialog through what a person and a script can do to it. `isTrusted` is the browser's to set
 * and happy-dom sets none: `person()` marks an event as a person's. The browser fires a trusted
 * `submit` for a submit button's click — a person's or a script's `click()` — and for
 * `requestSubmit()`; the stand-in below does the same, so only the guard can tell them apart.
 * (That Chromium really does so is proven in e2e/portal/review.test.ts.)
 */
function person<E extends Event>(event: E): E {
  Object.defineProperty(event, 'isTrusted', { value: true });
  return event;
}

const requestSubmit = HTMLFormElement.prototype.requestSubmit;
beforeEach(() => {
  HTMLFormElement.prototype.requestSubmit = function (this: HTMLFormElement, submitter?: HTMLElement | null) {
    this.dispatchEvent(person(new SubmitEvent('submit', { bubbles: true, cancelable: true, submitter })));
  };
});
afterEach(() => {
  HTMLFormElement.prototype.requestSubmit = requestSubmit;
  document.body.innerHTML = '';
});

const request = (id: string, overrides: Partial<ApprovalRequest> = {}): ApprovalRequest => ({
  id,
  source: 'intent',
  tool: 'rename',
  severity: 'high',
  summary: `Rename ${id}`,
  diff: [],
  args: { title: 'Plan', count: 2 },
  schema: {
    type: 'object',
    required: ['title'],
    properties: { title: { type: 'string', minLength: 1 }, count: { type: 'integer' } },
  },
  ...overrides,
});

async function mount() {
  defineElements();
  const kit: KitContext = createKitContext();
  kit.translator = createTranslator('en');
  const element = document.createElement('diosc-consensus-dialog') as ConsensusDialog;
  attachKit(element, kit);
  document.body.append(element);
  await element.updateComplete;
  const decisions: Record<string, Decision | Error> = {};
  const ask = async (req: ApprovalRequest, signal?: AbortSignal) => {
    kit.consensus.ask(req, signal).then(
      (decision) => {
        decisions[req.id] = decision;
      },
      (error: Error) => {
        decisions[req.id] = error;
      },
    );
    await element.updateComplete;
  };
  const root = element.shadowRoot!;
  const dialog = () => root.querySelector('dialog')!;
  const button = (label: string) => {
    const found = [...root.querySelectorAll('button')].find((each) => each.textContent?.trim() === label);
    if (!found) throw new Error(`no "${label}" button`);
    return found;
  };
  const problem = () => root.querySelector('.problem[role="alert"]')?.textContent ?? null;
  /** A person's press and click on a button, and whatever the browser does next. */
  const press = async (label: string) => {
    const target = button(label);
    target.dispatchEvent(person(new PointerEvent('pointerdown', { bubbles: true })));
    target.dispatchEvent(person(new MouseEvent('click', { bubbles: true })));
    await element.updateComplete;
    await Promise.resolve();
  };
  const settle = async () => {
    await element.updateComplete;
    await Promise.resolve();
    await element.updateComplete;
  };
  return { kit, element, root, dialog, button, problem, press, ask, decisions, settle };
}

describe('the consensus dialog', () => {
  it('shows the request: severity, where it runs, the tool, the summary, and focuses the first action', async () => {
    const { root, dialog, ask, kit, button } = await mount();
    expect(dialog().open).toBe(false);
    expect(root.querySelector('h2')).toBeNull();
    await ask(request('a'));
    expect(dialog().open).toBe(true);
    const badge = root.querySelector('[part="severity-badge"]')!;
    expect(badge.textContent).toBe('High impact');
    expect(badge.classList.contains('high')).toBe(true);
    expect(root.querySelector('.head .where')?.textContent).toBe('Runs in this page · rename');
    expect(root.querySelector('h2#consensus-title')?.textContent).toBe('Rename a');
    expect(root.querySelector('#consensus-intro')?.textContent).toBe(
      'The assistant asks to do this. Nothing runs until you decide.',
    );
    expect(
      [...root.querySelectorAll('form .actions button')].map((each) => each.textContent?.trim()),
    ).toEqual(['Reject…', 'Edit', 'Approve']);
    expect(root.activeElement?.textContent?.trim()).toBe('Reject…');
    expect(button('Approve').className).toBe('primary approve');
    expect(root.querySelector('dialog > small')?.textContent).toBe(
      'Esc closes this without deciding; you can review it again.',
    );
    // The kit's own styles are applied in its shadow root.
    expect(getComputedStyle(root.querySelector('form .actions')!).display).toBe('flex');
    kit.consensus.decide('a', { outcome: 'approve' });
  });

  it('renders nothing without a kit, whatever requests are open', async () => {
    defineElements();
    const kit = createKitContext();
    kit.translator = createTranslator('en');
    void kit.consensus.ask(request('a'));
    const element = document.createElement('diosc-consensus-dialog') as ConsensusDialog;
    document.body.append(element);
    await element.updateComplete;
    expect(element.mode).toBe('review');
    expect(element.shadowRoot!.querySelector('dialog')?.open).toBe(false);
    expect(element.shadowRoot!.querySelector('h2')).toBeNull();
    // Its kit is tied to it by the widget before it connects (every other test mounts that way).
  });

  it('a person’s press and click on Approve approve that request, once; the dialog closes', async () => {
    const { kit, dialog, press, ask, decisions, settle } = await mount();
    await ask(request('a'));
    await press('Approve');
    await settle();
    expect(decisions).toEqual({ a: { outcome: 'approve' } });
    expect(kit.consensus.pending.get()).toEqual([]);
    expect(dialog().open).toBe(false);
  });

  it('a person’s Enter or Space on the focused Approve approves; another key does not', async () => {
    const { kit, button, dialog, ask, decisions, settle, problem } = await mount();
    /** The person tabs onto Approve (focus a script moves there does not count: e2e covers it). */
    const tabTo = (target: HTMLElement) => {
      dialog().dispatchEvent(person(new KeyboardEvent('keydown', { key: 'Tab', bubbles: true })));
      target.focus();
      dialog().dispatchEvent(person(new KeyboardEvent('keyup', { key: 'Tab', bubbles: true })));
    };
    const key = async (name: string) => {
      const approve = button('Approve');
      tabTo(approve);
      approve.dispatchEvent(person(new KeyboardEvent('keydown', { key: name, bubbles: true })));
      approve.dispatchEvent(person(new MouseEvent('click', { bubbles: true })));
      await settle();
    };
    await ask(request('a'));
    await key('a');
    expect(problem()).toBe('Only a real click, tap or key press on a button can decide.');
    expect(decisions).toEqual({});
    await key('Enter');
    await ask(request('b'));
    await key(' ');
    expect(decisions).toEqual({ a: { outcome: 'approve' }, b: { outcome: 'approve' } });
    expect(kit.consensus.pending.get()).toEqual([]);
  });

  it('a key press on Approve after a script moved focus there, or a held key’s repeat, decides nothing', async () => {
    const { button, dialog, ask, decisions, settle, problem } = await mount();
    await ask(request('a'));
    const approve = button('Approve');
    const enter = async (init: KeyboardEventInit = {}) => {
      approve.dispatchEvent(person(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, ...init })));
      approve.dispatchEvent(person(new MouseEvent('click', { bubbles: true })));
      await settle();
    };
    // A script moves focus away and back: the opening's placement no longer counts.
    button('Reject…').focus();
    approve.focus();
    await enter();
    expect(decisions).toEqual({});
    expect(problem()).toBe('Only a real click, tap or key press on a button can decide.');
    // The person tabs there, but the key is one held down from before.
    const tabTo = (target: HTMLElement) => {
      dialog().dispatchEvent(person(new KeyboardEvent('keydown', { key: 'Tab', bubbles: true })));
      target.focus();
      dialog().dispatchEvent(person(new KeyboardEvent('keyup', { key: 'Tab', bubbles: true })));
    };
    button('Reject…').focus();
    tabTo(approve);
    await enter({ repeat: true });
    expect(decisions).toEqual({});
    // The same, with a fresh key press: approved.
    button('Reject…').focus();
    tabTo(approve);
    await enter();
    expect(decisions).toEqual({ a: { outcome: 'approve' } });
  });

  it('a script’s click(), requestSubmit() or synthetic submit decides nothing and says why', async () => {
    const { kit, root, dialog, button, problem, ask, decisions, settle, element } = await mount();
    await ask(request('a'));
    button('Approve').click();
    await settle();
    expect(problem()).toBe('Only a real click, tap or key press on a button can decide.');
    const form = root.querySelector('form')!;
    form.requestSubmit(button('Approve'));
    form.dispatchEvent(new SubmitEvent('submit', { submitter: button('Approve'), cancelable: true }));
    // A person's press followed by a script's click: the scripted click disarms it.
    button('Approve').dispatchEvent(person(new PointerEvent('pointerdown')));
    button('Approve').click();
    await settle();
    expect(decisions).toEqual({});
    expect(kit.consensus.pending.get().map((each) => each.id)).toEqual(['a']);
    expect(dialog().open).toBe(true);
    expect(element.mode).toBe('review');
  });

  it('a trusted submit without a submit button or from another control decides nothing', async () => {
    const { kit, root, button, problem, ask, decisions, settle } = await mount();
    await ask(request('a'));
    // A person's press and click on Approve, its own submit held back, then a trusted submit that
    // the Approve button did not make: with no submitter, and from the Reject… button.
    const arm = () => {
      const approve = button('Approve');
      approve.addEventListener('click', (event) => event.preventDefault(), { once: true });
      approve.dispatchEvent(person(new PointerEvent('pointerdown')));
      approve.dispatchEvent(person(new MouseEvent('click', { cancelable: true })));
    };
    const form = root.querySelector('form')!;
    arm();
    form.dispatchEvent(person(new SubmitEvent('submit', { cancelable: true, submitter: null })));
    await settle();
    expect(problem()).toBe('Only a real click, tap or key press on a button can decide.');
    arm();
    form.dispatchEvent(person(new SubmitEvent('submit', { cancelable: true, submitter: button('Reject…') })));
    await settle();
    expect(decisions).toEqual({});
    expect(kit.consensus.pending.get().map((each) => each.id)).toEqual(['a']);
    // The same activation with its own submit does decide: the refusals above were the submitter's.
    arm();
    form.dispatchEvent(person(new SubmitEvent('submit', { cancelable: true, submitter: button('Approve') })));
    await settle();
    expect(decisions).toEqual({ a: { outcome: 'approve' } });
  });

  it('an activation for one request never decides the next one shown', async () => {
    const { kit, button, ask, decisions, settle, problem } = await mount();
    const withdraw = new AbortController();
    await ask(request('a'), withdraw.signal);
    await ask(request('b'));
    button('Approve').dispatchEvent(person(new PointerEvent('pointerdown')));
    withdraw.abort(new Error('decided elsewhere'));
    await settle();
    expect(kit.consensus.shown.get()?.id).toBe('b');
    button('Approve').dispatchEvent(person(new MouseEvent('click')));
    await settle();
    expect(problem()).toBe('Only a real click, tap or key press on a button can decide.');
    expect(Object.keys(decisions)).toEqual(['a']);
    expect(kit.consensus.pending.get().map((each) => each.id)).toEqual(['b']);
  });

  it('switching modes disarms: a press before Reject… does not confirm the rejection', async () => {
    const { button, press, ask, decisions, settle, problem } = await mount();
    await ask(request('a'));
    button('Approve').dispatchEvent(person(new PointerEvent('pointerdown')));
    button('Reject…').click();
    await settle();
    button('Reject').dispatchEvent(person(new MouseEvent('click')));
    await settle();
    expect(problem()).toBe('Only a real click, tap or key press on a button can decide.');
    expect(decisions).toEqual({});
    expect(button('Reject').className).toBe('primary danger');
    await press('Reject');
    await settle();
    expect(decisions).toEqual({ a: { outcome: 'reject' } });
  });

  it('Reject… asks for an optional reason, trimmed and capped; Back returns to the review', async () => {
    const { root, button, press, ask, decisions, settle, problem, element } = await mount();
    await ask(request('a'));
    await ask(request('b'));
    await ask(request('c'));
    button('Reject…').click();
    await settle();
    expect(element.mode).toBe('reject');
    expect(root.querySelector('label[for="reason"]')?.textContent).toBe(
      'Reason (optional, shared with the assistant)',
    );
    // A refusal's message goes when the mode changes.
    button('Reject').click();
    await settle();
    expect(problem()).not.toBeNull();
    button('Back').click();
    await settle();
    expect(element.mode).toBe('review');
    expect(problem()).toBeNull();
    expect(root.querySelector('textarea#reason')).toBeNull();
    button('Reject…').click();
    await settle();
    (root.querySelector('textarea#reason') as HTMLTextAreaElement).value = '  wrong quarter  ';
    await press('Reject');
    await settle();
    expect(decisions.a).toEqual({ outcome: 'reject', reason: 'wrong quarter' });
    // The next request starts in review mode.
    expect(element.mode).toBe('review');
    button('Reject…').click();
    await settle();
    (root.querySelector('textarea#reason') as HTMLTextAreaElement).value = `${'x'.repeat(1_000)}yz`;
    await press('Reject');
    await settle();
    expect(decisions.b).toEqual({ outcome: 'reject', reason: 'x'.repeat(1_000) });
    button('Reject…').click();
    await settle();
    (root.querySelector('textarea#reason') as HTMLTextAreaElement).value = '   ';
    await press('Reject');
    await settle();
    expect(decisions.c).toEqual({ outcome: 'reject' });
  });

  it('Edit runs the values the person settled on, checked first, with what changed', async () => {
    const { root, button, press, ask, decisions, settle, problem, element } = await mount();
    await ask(request('a'));
    button('Edit').click();
    await settle();
    expect(element.mode).toBe('edit');
    // Back leaves Edit for the review, and Edit comes back with the arguments under review.
    button('Back').click();
    await settle();
    expect(element.mode).toBe('review');
    button('Edit').click();
    await settle();
    expect(element.mode).toBe('edit');
    expect(root.querySelector('p.muted:not(#consensus-intro)')?.textContent).toBe(
      "Change the values, then run them. They are checked against the tool's schema first.",
    );
    const title = root.querySelector<HTMLInputElement>('[name="arg:title"]')!;
    title.value = '';
    await press('Run with these values');
    await settle();
    expect(problem()).toBe('Not valid: arguments.title needs at least 1 characters');
    expect(decisions).toEqual({});
    expect(element.mode).toBe('edit');
    title.value = 'Q4 plan';
    expect(button('Run with these values').className).toBe('primary edit');
    await press('Run with these values');
    await settle();
    expect(decisions).toEqual({
      a: { outcome: 'edit', args: { title: 'Q4 plan', count: 2 }, changed: ['title'] },
    });
  });

  it('offers Edit only when there is a schema to edit against', async () => {
    const { root, ask, kit } = await mount();
    await ask(request('a', { schema: {} }));
    const labels = () =>
      [...root.querySelectorAll('form .actions button')].map((each) => each.textContent?.trim());
    expect(labels()).toEqual(['Reject…', 'Approve']);
    kit.consensus.decide('a', { outcome: 'approve' });
    await ask(request('b', { schema: { type: 'object' } }));
    expect(labels()).toEqual(['Reject…', 'Edit', 'Approve']);
  });

  it('the JSON editor of a schema without properties edits all the arguments', async () => {
    const { root, button, press, ask, decisions, settle } = await mount();
    await ask(request('a', { schema: { type: 'object', required: ['title'] } }));
    button('Edit').click();
    await settle();
    (root.querySelector('[name="args-json"]') as HTMLTextAreaElement).value = '{"title":"X"}';
    await press('Run with these values');
    await settle();
    expect(decisions).toEqual({ a: { outcome: 'edit', args: { title: 'X' }, changed: ['title', 'count'] } });
  });

  it('Escape hides the request without deciding; Review shows it again', async () => {
    const { kit, dialog, ask, decisions, settle } = await mount();
    await ask(request('a'));
    const cancel = new Event('cancel', { cancelable: true });
    dialog().dispatchEvent(cancel);
    await settle();
    expect(cancel.defaultPrevented).toBe(true);
    expect(dialog().open).toBe(false);
    expect(decisions).toEqual({});
    expect(kit.consensus.pending.get().map((each) => each.id)).toEqual(['a']);
    kit.consensus.reopen('a');
    await settle();
    expect(dialog().open).toBe(true);
  });
});
