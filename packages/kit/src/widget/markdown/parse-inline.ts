import { bareUrlEnd } from './bare-url.js';
import { type DelimiterRun, delimiterRun, processEmphasis } from './emphasis.js';
import type { InlineNode } from './inline-node.js';
import { ESCAPABLE, inlineLinkTarget } from './link-destination.js';

interface Bracket {
  kind: 'bracket';
  active: boolean;
  /** The delimiter stack's height when the `[` was read: emphasis inside the link pairs above it. */
  readonly bottom: number;
  link?: { href: string; title?: string };
}
type Token = string | DelimiterRun | Bracket | { kind: 'end' } | { kind: 'leaf'; inline: InlineNode };

const AUTOLINK = /<([A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>\p{Cc}]*)>/uy;
const EMAIL_AUTOLINK =
  /<([\w.!#$%&'*+/=?^`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*)>/y;

/** The character before `at`, whole even when it is an astral one (an emoji is punctuation here). */
const charBefore = (text: string, at: number) =>
  at === 0
    ? '\n'
    : String.fromCodePoint(text.codePointAt(at - 1 - (/[\udc00-\udfff]/.test(text[at - 1]!) ? 1 : 0))!);
const charAt = (text: string, at: number) =>
  at < text.length ? String.fromCodePoint(text.codePointAt(at)!) : '\n';

function runLength(text: string, at: number, char: string): number {
  let end = at;
  while (text[end] === char) end++;
  return end - at;
}

/**
 * One paragraph's (or heading's, or item's) inline content, parsed as CommonMark does for the
 * constructs the widget draws: backslash escapes, code spans, emphasis by delimiter runs, inline
 * links, `<autolinks>`, hard and soft line breaks — plus bare http(s) URLs as GFM links them. Raw
 * HTML, entities, images and reference links are left as the text they are.
 */
export function parseInline(text: string): InlineNode[] {
  const tokens: Token[] = [];
  const delimiters: DelimiterRun[] = [];
  const brackets: Bracket[] = [];
  // Backtick run lengths known to have no closer further on: a hostile "` `` ``` …" stays linear.
  const unclosedTicks = new Set<number>();
  let plain = '';
  const flush = () => {
    if (plain) tokens.push(plain);
    plain = '';
  };
  const leaf = (node: InlineNode) => {
    flush();
    tokens.push({ kind: 'leaf', inline: node });
  };
  for (let at = 0; at < text.length; ) {
    const char = text[at]!;
    if (char === '\\' && text[at + 1] === '\n') {
      leaf({ mark: 'br' });
      at += 2;
    } else if (char === '\\' && ESCAPABLE.test(text[at + 1] ?? '')) {
      plain += text[at + 1];
      at += 2;
    } else if (char === '\n') {
      // Hard or soft, a line break is a break in the widget: chat text is written line by line.
      plain = plain.replace(/ +$/, '');
      leaf({ mark: 'br' });
      for (at++; text[at] === ' ' || text[at] === '\t'; ) at++;
    } else if (char === '`') {
      const length = runLength(text, at, '`');
      const close = unclosedTicks.has(length) ? -1 : closingTicks(text, at + length, length);
      if (close < 0) {
        unclosedTicks.add(length);
        plain += text.slice(at, at + length);
      } else {
        const code = text.slice(at + length, close).replace(/\n/g, ' ');
        const padded = code.startsWith(' ') && code.endsWith(' ') && code.trim() !== '';
        leaf({ mark: 'code', text: padded ? code.slice(1, -1) : code });
      }
      at = close < 0 ? at + length : close + length;
    } else if (char === '*' || char === '_') {
      const length = runLength(text, at, char);
      const run = delimiterRun(char, length, charBefore(text, at), charAt(text, at + length));
      flush();
      tokens.push(run);
      delimiters.push(run);
      at += length;
    } else if (char === '[') {
      flush();
      const bracket: Bracket = { kind: 'bracket', active: true, bottom: delimiters.length };
      tokens.push(bracket);
      brackets.push(bracket);
      at++;
    } else if (char === ']') {
      const opener = brackets.pop();
      const target = opener?.active ? inlineLinkTarget(text, at + 1) : null;
      if (!opener || !target) {
        plain += ']';
        at++;
        continue;
      }
      flush();
      opener.link = { href: target.href, ...(target.title !== undefined ? { title: target.title } : {}) };
      tokens.push({ kind: 'end' });
      processEmphasis(delimiters, opener.bottom);
      // No links inside links: every `[` before this one can no longer open one.
      for (const earlier of brackets) earlier.active = false;
      at = target.end;
    } else if (char === '<') {
      AUTOLINK.lastIndex = EMAIL_AUTOLINK.lastIndex = at;
      const uri = AUTOLINK.exec(text);
      const email = uri ? null : EMAIL_AUTOLINK.exec(text);
      if (uri) leaf({ mark: 'autolink', href: uri[1]!, text: uri[1]! });
      else if (email) leaf({ mark: 'autolink', href: `mailto:${email[1]}`, text: email[1]! });
      else plain += '<';
      at += (uri ?? email)?.[0].length ?? 1;
    } else {
      const end = char === 'h' ? bareUrlEnd(text, at) : -1;
      if (end > at) leaf({ mark: 'autolink', href: text.slice(at, end), text: text.slice(at, end) });
      else plain += char;
      at = end > at ? end : at + 1;
    }
  }
  flush();
  processEmphasis(delimiters, 0);
  return nest(tokens);
}

function closingTicks(text: string, from: number, length: number): number {
  for (let at = text.indexOf('`', from); at >= 0; at = text.indexOf('`', at)) {
    const run = runLength(text, at, '`');
    if (run === length) return at;
    at += run;
  }
  return -1;
}

/** Turns the flat tokens, with the marks pairing left on them, into nested nodes. */
function nest(tokens: Token[]): InlineNode[] {
  const root: InlineNode[] = [];
  const open: InlineNode[][] = [root];
  const add = (node: InlineNode) => {
    const into = open.at(-1)!;
    if (typeof node === 'string' && typeof into.at(-1) === 'string') into.push(`${into.pop()}${node}`);
    else into.push(node);
  };
  const enter = (node: InlineNode & { children: InlineNode[] }) => {
    add(node);
    open.push(node.children);
  };
  for (const token of tokens) {
    if (typeof token === 'string') add(token);
    else if (token.kind === 'leaf') add(token.inline);
    else if (token.kind === 'end') open.pop();
    else if (token.kind === 'bracket')
      token.link ? enter({ mark: 'link', ...token.link, children: [] }) : add('[');
    else {
      for (const _ of token.closes) open.pop();
      if (token.left > 0) add(token.char.repeat(token.left));
      for (const mark of [...token.opens].reverse()) enter({ mark, children: [] });
    }
  }
  return root;
}
