// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { FocusOrigin } from '../src/consensus/focus-origin.js';

/**
 * Who put focus where it is, for every way focus moves inside the dialog. `isTrusted` is the
 * browser's to set and happy-dom sets none, so `person()` marks an event as a person's input; that
 * Chromium marks them so, and that a script's `.focus()` then Enter approves nothing, is proven in
 * e2e (kit approvals). Untrusted events are the ones a page's script can make.
 */
function person<E extends Event>(event: E): E {
  Object.defineProperty(event, 'isTrusted', { value: true });
  return event;
}

/** A `focusin` whose first composed target is `target`, as the dialog's listener receives it. */
function focusin(target: Element): FocusEvent {
  const event = new FocusEvent('focusin');
  Object.defineProperty(event, 'composedPath', { value: () => [target] });
  return event;
}

function pointerdown(target: Node, trusted: boolean): PointerEvent {
  const event = new PointerEvent('pointerdown');
  Object.defineProperty(event, 'composedPath', { value: () => [target] });
  return trusted ? person(event) : event;
}

const tab = (type: 'keydown' | 'keyup' = 'keydown') => person(new KeyboardEvent(type, { key: 'Tab' }));

function dialog() {
  const form = document.createElement('form');
  const approve = document.createElement('button');
  const label = document.createElement('span');
  approve.append(label);
  const reject = document.createElement('button');
  form.append(approve, reject);
  document.body.append(form);
  return { approve, label, reject };
}

afterEach(() => {
  document.body.replaceChildren();
});

describe('FocusOrigin', () => {
  it('counts focus the opening placed, and only on an element that took it', () => {
    const { approve } = dialog();
    const origin = new FocusOrigin();
    origin.place(approve);
    expect(document.activeElement).toBe(approve);
    expect(origin.placedOn(approve)).toBe(true);

    // An element that cannot take focus (not in the document) is never counted as placed.
    const detached = document.createElement('button');
    const fresh = new FocusOrigin();
    fresh.place(detached);
    expect(fresh.placedOn(detached)).toBe(false);
  });

  it('counts the opening’s focus when the dialog hears its focusin during place()', () => {
    const { approve } = dialog();
    const origin = new FocusOrigin();
    approve.addEventListener('focusin', (event) => origin.focusin(event as FocusEvent));
    origin.place(approve);
    expect(origin.placedOn(approve)).toBe(true);
    // After place() returns, a script focusing the same control is a script again.
    origin.focusin(focusin(approve));
    expect(origin.placedOn(approve)).toBe(false);
  });

  it('does not count a script’s focus, from the start or after a placed one', () => {
    const { approve, reject } = dialog();
    const origin = new FocusOrigin();
    origin.focusin(focusin(approve));
    expect(origin.placedOn(approve)).toBe(false);
    origin.place(reject);
    expect(origin.placedOn(reject)).toBe(true);
    origin.focusin(focusin(approve));
    expect(origin.placedOn(approve)).toBe(false);
    expect(origin.placedOn(reject)).toBe(false);
  });

  it('counts focus a person’s Tab moved, once, and not a scripted Tab or another key', () => {
    const { approve, reject } = dialog();
    const origin = new FocusOrigin();
    origin.keydown(tab());
    origin.focusin(focusin(approve));
    expect(origin.placedOn(approve)).toBe(true);
    // The Tab is spent by the focus it moved.
    origin.focusin(focusin(reject));
    expect(origin.placedOn(reject)).toBe(false);

    origin.keydown(new KeyboardEvent('keydown', { key: 'Tab' }));
    origin.focusin(focusin(approve));
    expect(origin.placedOn(approve)).toBe(false);

    origin.keydown(person(new KeyboardEvent('keydown', { key: 'Enter' })));
    origin.focusin(focusin(approve));
    expect(origin.placedOn(approve)).toBe(false);
  });

  it('disarms on the Tab’s keyup, not on another key’s', () => {
    const { approve } = dialog();
    const origin = new FocusOrigin();
    origin.keydown(tab());
    origin.keyup(new KeyboardEvent('keyup', { key: 'Shift' }));
    origin.focusin(focusin(approve));
    expect(origin.placedOn(approve)).toBe(true);

    origin.keydown(tab());
    origin.keyup(tab('keyup'));
    origin.focusin(focusin(approve));
    expect(origin.placedOn(approve)).toBe(false);
  });

  it('counts focus a person’s press gave the pressed control (or what holds it), and nothing else', () => {
    const { approve, label, reject } = dialog();
    const origin = new FocusOrigin();
    origin.pointerdown(pointerdown(label, true));
    origin.focusin(focusin(approve));
    expect(origin.placedOn(approve)).toBe(true);
    // Still pressed, focus moved by script to a control the press was not on.
    origin.focusin(focusin(reject));
    expect(origin.placedOn(reject)).toBe(false);
    // Released: focus after the press is not the press's.
    origin.pointerup();
    origin.focusin(focusin(approve));
    expect(origin.placedOn(approve)).toBe(false);
    // A scripted press counts for nothing.
    origin.pointerdown(pointerdown(approve, false));
    origin.focusin(focusin(approve));
    expect(origin.placedOn(approve)).toBe(false);
  });

  it('forgets everything on reset: placed focus, an armed Tab, a held press', () => {
    const { approve } = dialog();
    const origin = new FocusOrigin();
    origin.place(approve);
    origin.reset();
    expect(origin.placedOn(approve)).toBe(false);

    origin.keydown(tab());
    origin.reset();
    origin.focusin(focusin(approve));
    expect(origin.placedOn(approve)).toBe(false);

    origin.pointerdown(pointerdown(approve, true));
    origin.reset();
    origin.focusin(focusin(approve));
    expect(origin.placedOn(approve)).toBe(false);
  });
});
