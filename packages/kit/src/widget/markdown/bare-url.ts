const START = /https?:\/\/[^\s<>"]+/y;
const TRAILING_PUNCTUATION = /[?!.,:;*_~']/;

/**
 * Where a bare `http(s)://` URL starting at `start` ends (GFM's extended autolinks), or -1 when
 * there is none. It stops at whitespace, `<`, `>` and `"` — so a URL inside JSON
 * (`"https://a.example","path":…`) does not swallow the rest — and gives back trailing
 * punctuation and an unbalanced closing parenthesis, which belong to the sentence.
 */
export function bareUrlEnd(text: string, start: number): number {
  const before = text[start - 1];
  if (before !== undefined && !/[\s*_~(]/.test(before)) return -1;
  START.lastIndex = start;
  const found = START.exec(text);
  if (!found) return -1;
  let url = found[0];
  for (;;) {
    const last = url.at(-1)!;
    if (TRAILING_PUNCTUATION.test(last)) url = url.slice(0, -1);
    else if (last === ')' && count(url, ')') > count(url, '(')) url = url.slice(0, -1);
    else break;
  }
  return /^https?:\/\/[\w-]/.test(url) ? start + url.length : -1;
}

const count = (text: string, char: string) => text.split(char).length - 1;
