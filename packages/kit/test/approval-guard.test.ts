// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { ApprovalGuard } from '../src/consensus/approval-guard.js';

/**
 * The trusted-input guard's decision, for every combination of what arrives. `isTrusted` is the
 * browser's to set and happy-dom sets none, so `person()` marks an event as a person's input; that
 * the browser really marks them so — and a scripted click or requestSubmit is refused — is proven
 * in Chromium (e2e/portal/review.test.ts). Untrusted events are the ones script can make.
 */
function person<E extends Event>(event: E): E {
  Object.defineProperty(event, 'isTrusted', { value: true });
  return event;
}

function dialog() {
  const form = document.createElement('form');
  const approve = document.createElement('button');
  const other = document.createElement('button');
  form.append(approve, other);
  document.body.append(form);
  return { approve, other };
}

const press = () => person(new PointerEvent('pointerdown'));
const key = (name: string) => person(new KeyboardEvent('keydown', { key: name }));
const click = () => person(new MouseEvent('click'));
const submit = (submitter: HTMLElement | null) => person(new SubmitEvent('submit', { submitter }));

describe('ApprovalGuard', () => {
  it('a press, a click and the submit of the approve control, all a person’s, approve that review once', () => {
    const { approve } = dialog();
    const guard = new ApprovalGuard();
    guard.input(press(), 1);
    guard.click(click(), 1);
    expect(guard.approves(submit(approve), approve, 1)).toBe(true);
    // Spent: the next submit needs its own activation.
    expect(guard.approves(submit(approve), approve, 1)).toBe(false);
  });

  it('Enter and Space activate; any other key does not', () => {
    const { approve } = dialog();
    const guard = new ApprovalGuard();
    for (const name of ['Enter', ' ']) {
      guard.input(key(name), 1);
      guard.click(click(), 1);
      expect(guard.approves(submit(approve), approve, 1)).toBe(true);
    }
    guard.input(key('a'), 1);
    guard.click(click(), 1);
    expect(guard.approves(submit(approve), approve, 1)).toBe(false);
  });

  it('a submit script dispatched never approves, even right after a person’s activation', () => {
    const { approve } = dialog();
    const guard = new ApprovalGuard();
    guard.input(press(), 1);
    guard.click(click(), 1);
    expect(guard.approves(new SubmitEvent('submit', { submitter: approve }), approve, 1)).toBe(false);
  });

  it('a scripted click disarms a person’s press: a later click alone does not approve', () => {
    const { approve } = dialog();
    const guard = new ApprovalGuard();
    guard.input(press(), 1);
    guard.click(new MouseEvent('click'), 1);
    guard.click(click(), 1);
    expect(guard.approves(submit(approve), approve, 1)).toBe(false);
  });

  it('a scripted press or key does not arm it, whatever follows', () => {
    const { approve } = dialog();
    const guard = new ApprovalGuard();
    guard.input(new PointerEvent('pointerdown'), 1);
    guard.click(click(), 1);
    expect(guard.approves(submit(approve), approve, 1)).toBe(false);
    guard.input(new KeyboardEvent('keydown', { key: 'Enter' }), 1);
    guard.click(click(), 1);
    expect(guard.approves(submit(approve), approve, 1)).toBe(false);
  });

  it('a click without a press, or a press without a click, does not approve', () => {
    const { approve } = dialog();
    const guard = new ApprovalGuard();
    guard.click(click(), 1);
    expect(guard.approves(submit(approve), approve, 1)).toBe(false);
    guard.input(press(), 1);
    expect(guard.approves(submit(approve), approve, 1)).toBe(false);
  });

  it('only the approve control submits an approval; without one nothing does', () => {
    const { approve, other } = dialog();
    const guard = new ApprovalGuard();
    guard.input(press(), 1);
    guard.click(click(), 1);
    expect(guard.approves(submit(other), approve, 1)).toBe(false);
    guard.input(press(), 1);
    guard.click(click(), 1);
    expect(guard.approves(submit(null), null, 1)).toBe(false);
  });

  it('an activation for one review never approves another', () => {
    const { approve } = dialog();
    const guard = new ApprovalGuard();
    guard.input(press(), 1);
    guard.click(click(), 1);
    expect(guard.approves(submit(approve), approve, 2)).toBe(false);
    guard.input(press(), 1);
    guard.click(click(), 2);
    expect(guard.approves(submit(approve), approve, 2)).toBe(false);
    guard.input(press(), 2);
    guard.click(click(), 1);
    expect(guard.approves(submit(approve), approve, 1)).toBe(false);
  });

  it('the click counts only after a person’s press for the same review: no click banked in advance', () => {
    const { approve } = dialog();
    const guard = new ApprovalGuard();
    // A scripted click, then a person's press, then a scripted requestSubmit (a trusted submit).
    guard.click(new MouseEvent('click'), 1);
    guard.input(press(), 1);
    expect(guard.approves(submit(approve), approve, 1)).toBe(false);
    // A person's click before any press, then a press.
    guard.click(click(), 1);
    guard.input(press(), 1);
    expect(guard.approves(submit(approve), approve, 1)).toBe(false);
    // A press, a scripted click (which disarms), a second press: still no click of this activation.
    guard.input(press(), 1);
    guard.click(new MouseEvent('click'), 1);
    guard.input(press(), 1);
    expect(guard.approves(submit(approve), approve, 1)).toBe(false);
    // A click while armed for another review, then a press for this one.
    guard.input(press(), 2);
    guard.click(click(), 1);
    guard.input(press(), 1);
    expect(guard.approves(submit(approve), approve, 1)).toBe(false);
  });

  it('a press for another review after the click disarms this one', () => {
    const { approve } = dialog();
    const guard = new ApprovalGuard();
    guard.input(press(), 1);
    guard.click(click(), 1);
    guard.input(press(), 2);
    expect(guard.approves(submit(approve), approve, 1)).toBe(false);
  });

  it('reset forgets an activation (the review closed or changed)', () => {
    const { approve } = dialog();
    const guard = new ApprovalGuard();
    guard.input(press(), 1);
    guard.click(click(), 1);
    guard.reset();
    expect(guard.approves(submit(approve), approve, 1)).toBe(false);
  });

  it('a press released off the approve control arms nothing: a later trusted click (an implicit submit) does not approve', () => {
    const { approve, other } = dialog();
    const guard = new ApprovalGuard();
    // As the dialog wires it: every release in the form, read while it is dispatched.
    approve.form!.addEventListener('pointerup', (event) => guard.release(event, approve), true);
    const release = (on: HTMLElement) =>
      on.dispatchEvent(person(new PointerEvent('pointerup', { bubbles: true, composed: true })));
    guard.input(press(), 1);
    release(other);
    guard.click(click(), 1);
    expect(guard.approves(submit(approve), approve, 1)).toBe(false);
    // Released on the control itself, the press is the person's activation.
    guard.input(press(), 1);
    release(approve);
    guard.click(click(), 1);
    expect(guard.approves(submit(approve), approve, 1)).toBe(true);
  });
});
