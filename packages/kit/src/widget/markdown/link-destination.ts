/** Backslash-escapable characters: ASCII punctuation (spec §2.4). */
export const ESCAPABLE = /[!-/:-@[-`{-~]/;

const withoutEscapes = (text: string) => text.replace(/\\([!-/:-@[-`{-~])/g, '$1');

/** Spaces and tabs with at most one line ending (the spec's "optional whitespace" in a link). */
function skipSpace(text: string, at: number): number {
  let newline = false;
  for (; at < text.length; at++) {
    const char = text[at];
    if (char === '\n' && !newline) newline = true;
    else if (char !== ' ' && char !== '\t') break;
  }
  return at;
}

function destination(text: string, at: number): { value: string; end: number } | null {
  if (text[at] === '<') {
    for (let end = at + 1; end < text.length; end++) {
      const char = text[end];
      if (char === '\\' && ESCAPABLE.test(text[end + 1] ?? '')) end++;
      else if (char === '\n' || char === '<') return null;
      else if (char === '>') return { value: withoutEscapes(text.slice(at + 1, end)), end: end + 1 };
    }
    return null;
  }
  let depth = 0;
  let end = at;
  for (; end < text.length; end++) {
    const char = text[end]!;
    if (char === '\\' && ESCAPABLE.test(text[end + 1] ?? '')) end++;
    else if (char <= ' ' || char === '\x7f') break;
    else if (char === '(') {
      // The spec lets implementations cap nesting; 32 keeps a hostile `((((…` cheap.
      if (++depth > 32) return null;
    } else if (char === ')') {
      if (depth === 0) break;
      depth--;
    }
  }
  return depth === 0 ? { value: withoutEscapes(text.slice(at, end)), end } : null;
}

function title(text: string, at: number): { value: string; end: number } | null {
  const close = { '"': '"', "'": "'", '(': ')' }[text[at] ?? ''];
  if (!close) return null;
  for (let end = at + 1; end < text.length; end++) {
    const char = text[end];
    if (char === '\\' && ESCAPABLE.test(text[end + 1] ?? '')) end++;
    else if (char === close) return { value: withoutEscapes(text.slice(at + 1, end)), end: end + 1 };
    else if (close === ')' && char === '(') return null;
  }
  return null;
}

/**
 * The `(destination "title")` of an inline link, read from `at` (just after the `]`), or null when
 * the text there is not one (the brackets then stay text).
 */
export function inlineLinkTarget(
  text: string,
  at: number,
): { href: string; title?: string; end: number } | null {
  if (text[at] !== '(') return null;
  let end = skipSpace(text, at + 1);
  const target = text[end] === ')' ? { value: '', end } : destination(text, end);
  if (!target) return null;
  end = skipSpace(text, target.end);
  const named = end > target.end ? title(text, end) : null;
  if (named) end = skipSpace(text, named.end);
  if (text[end] !== ')') return null;
  return { href: target.value, ...(named ? { title: named.value } : {}), end: end + 1 };
}
