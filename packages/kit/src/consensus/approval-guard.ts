/**
 * Decides whether a submit of a decision form is a person's decision — the portal's mutation review
 * and the kit's consensus dialog both use this one guard.
 *
 * Two signals are required, because neither is enough alone:
 * - a trusted `submit` event: script can call `form.submit()` (no event at all) or dispatch a
 *   synthetic `submit` (untrusted), neither of which may approve;
 * - a trusted activating input on the approve control — a real pointer press or key press
 *   (`pointerdown` / `keydown` Enter or Space, `isTrusted`) followed by a trusted `click`. This is
 *   needed because a scripted `approveButton.click()` (or `form.requestSubmit(approveButton)`)
 *   makes the *browser* fire the form's `submit`, and that submit event is trusted. The click that
 *   `button.click()` dispatches is not trusted, so it disarms the guard before the submit arrives.
 *
 * An arming lasts only for the activation it began: a press released off the approve control
 * (`release`), or a key press on it that may not start a decision (the dialog calls `reset`), ends
 * it — so an earlier press never lends its trust to a later click.
 *
 * State is private to the guard and tied to one review id, so an activation for one review never
 * approves another. This stops accidental or script-driven approval through this UI; it is not a
 * sandbox against hostile same-origin code, which already holds the owner's session.
 */
export class ApprovalGuard {
  #armedFor: number | null = null;
  #clickedFor: number | null = null;

  /** Call for `pointerdown` and `keydown` on the approve control. */
  input(event: Event, reviewId: number): void {
    if (!event.isTrusted) return;
    if (event instanceof KeyboardEvent && event.key !== 'Enter' && event.key !== ' ') return;
    this.#armedFor = reviewId;
  }

  /** Call for every `pointerup` in the dialog: a press released off the approve control activated nothing. */
  release(event: Event, approveControl: Element | null): void {
    const target = event.composedPath()[0];
    if (!approveControl || !(target instanceof Node) || !approveControl.contains(target))
      this.#armedFor = null;
  }

  /** Call for `click` on the approve control. */
  click(event: Event, reviewId: number): void {
    this.#clickedFor = event.isTrusted && this.#armedFor === reviewId ? reviewId : null;
    if (!event.isTrusted) this.#armedFor = null;
  }

  /** Call for the form's `submit`; true only for a trusted submit right after a trusted activation. */
  approves(event: SubmitEvent, approveControl: Element | null, reviewId: number): boolean {
    const ok =
      event.isTrusted === true &&
      approveControl !== null &&
      event.submitter === approveControl &&
      this.#armedFor === reviewId &&
      this.#clickedFor === reviewId;
    this.reset();
    return ok;
  }

  reset(): void {
    this.#armedFor = null;
    this.#clickedFor = null;
  }
}
