/** How much of a duplicated name a refusal echoes. */
const NAME_ECHO_MAX = 64;

/**
 * The first name that appears twice in one object of `text`, a JSON text already known to be
 * valid, or undefined. `JSON.parse` keeps the last of two equal names, so a body could say one
 * thing to a reader that keeps the first (a proxy, a log, a signature) and another to us; RFC 8259
 * §4 leaves such a text's meaning undefined and I-JSON (RFC 7493 §2.3) forbids it. One pass, each
 * name compared once in a set per open object: linear in the text. A name with escapes is compared
 * decoded, so `"a"` and `"\u0061"` are the same name.
 */
export function duplicateKeyOf(text: string): string | undefined {
  // One entry per open container: a set of names for an object, null for an array.
  const open: (Set<string> | null)[] = [];
  let expectName = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const start = i + 1;
      let escaped = false;
      for (i = start; text.charCodeAt(i) !== 0x22; i++) {
        if (text.charCodeAt(i) === 0x5c) {
          escaped = true;
          i++;
        }
      }
      if (!expectName) continue;
      expectName = false;
      const raw = text.slice(start, i);
      const name = escaped ? (JSON.parse(`"${raw}"`) as string) : raw;
      const names = open[open.length - 1]!;
      if (names.has(name)) return name.slice(0, NAME_ECHO_MAX);
      names.add(name);
    } else if (c === 0x7b) {
      open.push(new Set());
      expectName = true;
    } else if (c === 0x5b) {
      open.push(null);
      expectName = false;
    } else if (c === 0x7d || c === 0x5d) {
      open.pop();
      expectName = false;
    } else if (c === 0x2c) {
      expectName = open[open.length - 1] != null;
    }
  }
  return undefined;
}
