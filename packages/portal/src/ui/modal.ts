import { deepActiveElement } from '@diosc/kit/deep-active-element';

/**
 * Opens a native modal `<dialog>` (the browser traps focus and makes the rest inert), moves focus to
 * `initial` (or the dialog's first control) and, when it closes, gives focus back to whatever had
 * it before — unless something else took it meanwhile: a command that moved to another page put
 * focus on that page (the `close` event comes a task later), and that is where it should stay.
 */
export function openModal(dialog: HTMLDialogElement, initial?: HTMLElement | null): void {
  const previous = deepActiveElement();
  dialog.addEventListener(
    'close',
    () => {
      const now = deepActiveElement();
      const unclaimed = now === null || now === document.body || now === previous || dialog.contains(now);
      if (unclaimed && previous?.isConnected) previous.focus();
    },
    { once: true },
  );
  if (!dialog.open) dialog.showModal();
  initial?.focus();
}
