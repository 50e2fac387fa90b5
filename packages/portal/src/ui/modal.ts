/** The element that really has focus, looking through open shadow roots. */
export function deepActiveElement(): HTMLElement | null {
  let active: Element | null = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active instanceof HTMLElement ? active : null;
}

/**
 * Opens a native modal `<dialog>` (the browser traps focus and makes the rest inert), moves focus to
 * `initial` (or the dialog's first control) and, when it closes, gives focus back to whatever had
 * it before.
 */
export function openModal(dialog: HTMLDialogElement, initial?: HTMLElement | null): void {
  const previous = deepActiveElement();
  dialog.addEventListener(
    'close',
    () => {
      if (previous?.isConnected) previous.focus();
    },
    { once: true },
  );
  if (!dialog.open) dialog.showModal();
  initial?.focus();
}
