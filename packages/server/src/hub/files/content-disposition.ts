/**
 * `Content-Disposition: attachment` with both forms of the name (RFC 6266): `filename` as an ASCII
 * fallback for old clients and, when the name is not plain ASCII, `filename*` in RFC 5987/8187
 * UTF-8 percent-encoding. Written here rather than taken from `content-disposition`: its current
 * major needs Node 22 and shadows the types of the 1.x line that runs on Node 20.
 *
 * @example
 * attachmentDisposition('résumé.pdf') // `attachment; filename="r?sum?.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf`
 */
export function attachmentDisposition(filename: string): string {
  // Printable ASCII only, and nothing that could end the quoted string or escape out of it.
  const fallback = filename.replace(/[^\x20-\x7e]|["\\%]/g, '?');
  const header = `attachment; filename="${fallback}"`;
  if (fallback === filename) return header;
  // attr-char (RFC 8187) excludes what encodeURIComponent leaves alone: ' ( ) *
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${header}; filename*=UTF-8''${encoded}`;
}
