/**
 * The blocks the widget draws, read line by line as CommonMark reads them: paragraphs, `#`
 * headings, fenced code, `>` quotes, thematic breaks and `-`/`+`/`*`/`1.`/`1)` lists with their
 * nesting, lazy lines and tight/loose spacing. Not supported (their text shows as paragraphs):
 * setext headings, indented code, HTML blocks, tables, link reference definitions.
 */
export type Block = { gapBefore: boolean } & (
  | { kind: 'paragraph'; text: string }
  | { kind: 'heading'; level: number; text: string }
  | { kind: 'code'; text: string }
  | { kind: 'quote'; children: Block[] }
  | { kind: 'rule' }
  | { kind: 'list'; ordered: boolean; start: number; tight: boolean; items: Block[][] }
);

const FENCE = /^( {0,3})(`{3,}(?!.*`)|~{3,})/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const QUOTE = /^ {0,3}> ?/;
const RULE = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const ITEM = /^( {0,3})([-+*]|(\d{1,9})[.)])(?=[ \t]|$)/;

const blank = (line: string) => line.trim() === '';
const indentOf = (line: string) => line.length - line.trimStart().length;

interface Marker {
  /** Two markers make one list only when they match: the bullet, or the `.`/`)` after a number. */
  sign: string;
  start: number | null;
  /** The column the item's content starts at: its continuation lines are indented this far. */
  width: number;
  first: string;
}

function listMarker(line: string): Marker | null {
  const found = ITEM.exec(line);
  if (!found || RULE.test(line)) return null;
  const rest = line.slice(found[0].length);
  const spaces = indentOf(rest);
  const markerEnd = found[0].length;
  // Five or more spaces after the marker start indented code: the content column is one space in.
  const width = blank(rest) || spaces > 4 ? markerEnd + 1 : markerEnd + spaces;
  return {
    sign: found[3] ? found[2]!.slice(-1) : found[2]!,
    start: found[3] ? Number(found[3]) : null,
    width,
    first: blank(rest) ? '' : line.slice(width),
  };
}

/** Whether `line` begins a block other than a paragraph, so it ends (or interrupts) one. */
function startsBlock(line: string, inParagraph: boolean): boolean {
  if (FENCE.test(line) || HEADING.test(line) || QUOTE.test(line) || RULE.test(line)) return true;
  const marker = listMarker(line);
  // Inside a paragraph only a non-empty bullet or a list starting at 1 may interrupt it.
  return !!marker && (!inParagraph || (marker.first.trim() !== '' && (marker.start ?? 1) === 1));
}

/** Quotes and lists nested deeper than this are read as text: hostile nesting cannot exhaust the stack. */
const MAX_DEPTH = 32;

export function parseBlocks(lines: readonly string[], depth = 0): Block[] {
  const blocks: Block[] = [];
  let gapBefore = false;
  for (let at = 0; at < lines.length; ) {
    const line = lines[at]!;
    const fence = FENCE.exec(line);
    const heading = HEADING.exec(line);
    const marker = listMarker(line);
    if (blank(line)) {
      gapBefore = blocks.length > 0;
      at++;
      continue;
    }
    if (fence) {
      const [, indent, open] = fence;
      const body: string[] = [];
      for (at++; at < lines.length; at++) {
        const close = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(lines[at]!);
        if (close && close[1]![0] === open![0] && close[1]!.length >= open!.length) break;
        body.push(lines[at]!.replace(new RegExp(`^ {0,${indent!.length}}`), ''));
      }
      at++;
      blocks.push({ gapBefore, kind: 'code', text: body.map((each) => `${each}\n`).join('') });
    } else if (heading) {
      blocks.push({ gapBefore, kind: 'heading', level: heading[1]!.length, text: (heading[2] ?? '').trim() });
      at++;
    } else if (RULE.test(line)) {
      blocks.push({ gapBefore, kind: 'rule' });
      at++;
    } else if (depth >= MAX_DEPTH) {
      blocks.push({ gapBefore, kind: 'paragraph', text: lines.slice(at).join('\n').trim() });
      break;
    } else if (QUOTE.test(line)) {
      const quoted: string[] = [];
      for (; at < lines.length; at++) {
        const next = lines[at]!;
        if (QUOTE.test(next)) quoted.push(next.replace(QUOTE, ''));
        // A lazy line: plain text right after quoted text goes on with the quoted paragraph.
        else if (!blank(next) && !blank(quoted.at(-1)!) && !startsBlock(next, false)) quoted.push(next);
        else break;
      }
      blocks.push({ gapBefore, kind: 'quote', children: parseBlocks(quoted, depth + 1) });
    } else if (marker) {
      at = readList(lines, at, marker, gapBefore, blocks, depth);
    } else {
      const text: string[] = [];
      for (; at < lines.length && !blank(lines[at]!) && !(text.length && startsBlock(lines[at]!, true)); at++)
        text.push(lines[at]!.trimStart());
      blocks.push({ gapBefore, kind: 'paragraph', text: text.join('\n').trimEnd() });
    }
    gapBefore = false;
  }
  return blocks;
}

/** Reads one list from `at`, pushes it on `blocks` and returns the first line after it. */
function readList(
  lines: readonly string[],
  at: number,
  first: Marker,
  gapBefore: boolean,
  blocks: Block[],
  depth: number,
): number {
  const items: Block[][] = [];
  let loose = false;
  let marker: Marker | null = first;
  while (marker) {
    const content = [marker.first];
    let next = at + 1;
    // An item may begin with at most one blank line: a marker alone, then a blank, is an empty item.
    const empty = marker.first === '' && (next >= lines.length || blank(lines[next]!));
    for (; !empty && next < lines.length; next++) {
      const line = lines[next]!;
      if (blank(line)) {
        let after = next;
        while (after < lines.length && blank(lines[after]!)) after++;
        if (after >= lines.length || indentOf(lines[after]!) < marker.width) break;
        content.push('');
      } else if (indentOf(line) >= marker.width) content.push(line.slice(marker.width));
      // A lazy line goes on with the item's paragraph; any list marker out here starts a sibling.
      else if (!blank(content.at(-1)!) && !startsBlock(line, false) && !inFence(content)) content.push(line);
      else break;
    }
    const children = parseBlocks(content, depth + 1);
    items.push(children);
    if (children.slice(1).some((child) => child.gapBefore)) loose = true;
    let after = next;
    while (after < lines.length && blank(lines[after]!)) after++;
    const following = after < lines.length ? listMarker(lines[after]!) : null;
    marker = following && following.sign === first.sign ? following : null;
    if (marker && after > next) loose = true;
    at = marker ? after : next;
  }
  blocks.push({
    gapBefore,
    kind: 'list',
    ordered: first.start !== null,
    start: first.start ?? 1,
    tight: !loose,
    items,
  });
  return at;
}

/** Whether the lines so far leave a fenced code block open (its lines are never lazy). */
function inFence(lines: readonly string[]): boolean {
  let open = false;
  for (const line of lines) if (FENCE.test(line)) open = !open;
  return open;
}
