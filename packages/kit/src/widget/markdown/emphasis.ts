/**
 * CommonMark's delimiter runs (spec §6.2): which `*`/`_` runs may open or close emphasis, and the
 * "process emphasis" pass that pairs them. Pairing records marks on the runs themselves; the
 * inline parser turns them into nested nodes afterwards.
 */
export interface DelimiterRun {
  readonly kind: 'delimiter';
  char: '*' | '_';
  /** Characters not (yet) used by a pair: they stay as text. */
  left: number;
  readonly length: number;
  readonly canOpen: boolean;
  readonly canClose: boolean;
  /** Marks this run opens, innermost first (a run's rightmost characters open the innermost). */
  readonly opens: ('em' | 'strong')[];
  /** Marks this run closes, innermost first (its leftmost characters close the innermost). */
  readonly closes: ('em' | 'strong')[];
}

const WHITESPACE = /^[\s\p{Zs}]$/u;
const PUNCTUATION = /^[\p{P}\p{S}]$/u;

/** `before`/`after` are the characters around the run, `'\n'` at either end of the text. */
export function delimiterRun(char: '*' | '_', length: number, before: string, after: string): DelimiterRun {
  const spaceBefore = WHITESPACE.test(before);
  const spaceAfter = WHITESPACE.test(after);
  const punctBefore = PUNCTUATION.test(before);
  const punctAfter = PUNCTUATION.test(after);
  const leftFlanking = !spaceAfter && (!punctAfter || spaceBefore || punctBefore);
  const rightFlanking = !spaceBefore && (!punctBefore || spaceAfter || punctAfter);
  // An underscore inside a word (snake_case) neither opens nor closes: the rule that keeps
  // ANTHROPIC_API_KEY intact.
  const canOpen = char === '*' ? leftFlanking : leftFlanking && (!rightFlanking || punctBefore);
  const canClose = char === '*' ? rightFlanking : rightFlanking && (!leftFlanking || punctAfter);
  return { kind: 'delimiter', char, left: length, length, canOpen, canClose, opens: [], closes: [] };
}

/**
 * Pairs the runs in `stack` above `bottom` (spec "process emphasis"), then drops them from the
 * stack. `openersBottom` remembers, per kind of closer, where a search already failed, so hostile
 * input like `*a _b *c _d …` stays linear rather than quadratic.
 */
export function processEmphasis(stack: DelimiterRun[], bottom: number): void {
  const openersBottom = new Map<string, DelimiterRun | undefined>();
  let closerAt = bottom;
  while (closerAt < stack.length) {
    const closer = stack[closerAt]!;
    if (!closer.canClose) {
      closerAt++;
      continue;
    }
    const kind = `${closer.char}${closer.canOpen ? 1 : 0}${closer.length % 3}`;
    const stopAt = openersBottom.get(kind);
    let openerAt = closerAt - 1;
    for (; openerAt >= bottom && stack[openerAt] !== stopAt; openerAt--) {
      const opener = stack[openerAt]!;
      // The "rule of 3": a run that can both open and close only pairs with one whose combined
      // length is not a multiple of 3, unless both are.
      const oddMatch =
        (closer.canOpen || opener.canClose) &&
        closer.length % 3 !== 0 &&
        (opener.length + closer.length) % 3 === 0;
      if (opener.char === closer.char && opener.canOpen && !oddMatch) break;
    }
    if (openerAt < bottom || stack[openerAt] === stopAt) {
      openersBottom.set(kind, stack[closerAt - 1]);
      if (closer.canOpen) closerAt++;
      else stack.splice(closerAt, 1);
      continue;
    }
    const opener = stack[openerAt]!;
    const used = opener.left >= 2 && closer.left >= 2 ? 2 : 1;
    const mark = used === 2 ? 'strong' : 'em';
    opener.left -= used;
    closer.left -= used;
    opener.opens.push(mark);
    closer.closes.push(mark);
    // Runs between the pair can no longer pair across it: they stay text.
    stack.splice(openerAt + 1, closerAt - openerAt - 1);
    closerAt = openerAt + 1;
    if (opener.left === 0) {
      stack.splice(openerAt, 1);
      closerAt--;
    }
    if (closer.left === 0) stack.splice(closerAt, 1);
  }
  stack.length = bottom;
}
