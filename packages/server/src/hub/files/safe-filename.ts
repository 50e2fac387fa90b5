/**
 * Characters a filename never keeps: controls (`Cc`: NUL truncates names in C code, newlines split
 * headers and logs) and format characters (`Cf`: bidirectional overrides and isolates — U+202E makes
 * `invoice\u202Efdp.exe` read as `invoiceexe.pdf` — zero-width characters, the BOM), lone surrogates
 * (not UTF-8) and line separators.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Cs}\u2028\u2029]/gu;
/** Reserved on Windows or meaningful to shells and URLs. */
const RESERVED = /[<>:"|?*\\/]/g;
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i;

/** Bytes of a stored name: below every common filesystem's 255, with room for a browser's " (1)". */
export const FILENAME_MAX_BYTES = 200;
/** The page's original name, kept for the operator as display text only. */
export const ORIGINAL_NAME_MAX_CHARS = 1_000;

/**
 * The name a file is stored, described and downloaded under: no path (only the last segment of
 * either separator), nothing invisible, no leading dots, at most 200 UTF-8 bytes, and an extension
 * that names the stored type — so `../../x.html` stored as text becomes `x.html.txt`.
 *
 * @example
 * safeFilename('..\\..\\report\u202Efdp.exe', ['pdf']) // 'reportfdp.exe.pdf'
 */
export function safeFilename(raw: string, extensions: string[]): string {
  const segment = raw.normalize('NFC').split(/[\\/]/).pop() ?? '';
  let name = segment.replace(INVISIBLE, '').replace(RESERVED, '_').trim();
  name = name.replace(/^[.\s]+/, '').replace(/[.\s]+$/, '');
  if (WINDOWS_DEVICE.test(name)) name = `_${name}`;
  const ext = /\.([A-Za-z0-9]{1,10})$/.exec(name)?.[1];
  const fits = ext !== undefined && extensions.includes(ext.toLowerCase());
  const base = (fits ? name.slice(0, -(ext.length + 1)) : name).replace(/[.\s]+$/, '') || 'file';
  const suffix = `.${fits ? ext.toLowerCase() : (extensions[0] ?? 'bin')}`;
  return `${truncateBytes(base, FILENAME_MAX_BYTES - Buffer.byteLength(suffix))}${suffix}`;
}

/** The original name as display text: no NUL (PostgreSQL text refuses it), bounded. */
export function originalName(raw: string): string {
  return Array.from(raw.replaceAll('\u0000', '')).slice(0, ORIGINAL_NAME_MAX_CHARS).join('');
}

/** Cuts at a code point so a multi-byte character is never split. */
function truncateBytes(text: string, maxBytes: number): string {
  let out = '';
  let bytes = 0;
  for (const char of text) {
    const size = Buffer.byteLength(char);
    if (bytes + size > maxBytes) break;
    out += char;
    bytes += size;
  }
  return out.trim() || 'file';
}
