/**
 * Knows whether focus inside the consensus dialog was put where it is by the person — a trusted
 * Tab, or a trusted pointer press on that control — or by the dialog's own opening. A script's
 * `.focus()` fires the same focus events, and they are trusted too, so the events alone cannot
 * tell; this tracks what moved focus. Without it, a script that focuses Approve turns the person's
 * next Enter (meant for something else) into an approval.
 */
export class FocusOrigin {
  #placed: Element | null = null;
  #expected: Element | null = null;
  #tabbing = false;
  #pressed: Node | null = null;

  /** Focuses `element` as the dialog's opening does; that focus counts as placed. */
  place(element: HTMLElement): void {
    this.#expected = element;
    element.focus();
    this.#expected = null;
    const root = element.getRootNode() as Document | ShadowRoot;
    if (root.activeElement === element) this.#placed = element;
  }

  /** `keydown`, in the capture phase on the dialog. */
  keydown(event: KeyboardEvent): void {
    if (event.isTrusted && event.key === 'Tab') this.#tabbing = true;
  }

  /** `keyup` on the dialog: a Tab that moved nothing leaves nothing armed. */
  keyup(event: KeyboardEvent): void {
    if (event.key === 'Tab') this.#tabbing = false;
  }

  /** `pointerdown`, in the capture phase on the dialog. */
  pointerdown(event: PointerEvent): void {
    this.#pressed = event.isTrusted ? (event.composedPath()[0] as Node) : null;
  }

  /** `pointerup` on the dialog. */
  pointerup(): void {
    this.#pressed = null;
  }

  /** `focusin` on the dialog: decides whose focus this is. */
  focusin(event: FocusEvent): void {
    const target = event.composedPath()[0] as Element;
    const byPointer = this.#pressed !== null && target.contains(this.#pressed);
    this.#placed = target === this.#expected || this.#tabbing || byPointer ? target : null;
    this.#tabbing = false;
  }

  /** Whether `element` holds focus that the person or the opening gave it. */
  placedOn(element: Element): boolean {
    return this.#placed === element;
  }

  reset(): void {
    this.#placed = null;
    this.#expected = null;
    this.#tabbing = false;
    this.#pressed = null;
  }
}
