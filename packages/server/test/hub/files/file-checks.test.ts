import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseByteRange } from '../../../src/hub/files/byte-range.js';
import { attachmentDisposition } from '../../../src/hub/files/content-disposition.js';
import { safeFilename } from '../../../src/hub/files/safe-filename.js';
import { decideStoredType } from '../../../src/hub/files/stored-type.js';
import { PDF_HEAD, PNG_1PX } from './file-client.js';

describe('safeFilename', () => {
  it('never keeps a path, an invisible character, a leading dot, a wrong extension or more than 200 bytes', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'binary', maxLength: 600 }),
          fc.string({ unit: 'grapheme-composite', maxLength: 300 }),
          fc.string({
            unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)),
            maxLength: 300,
          }),
        ),
        fc.constantFrom(['txt'], ['png'], ['jpg', 'jpeg']),
        (raw, extensions) => {
          const name = safeFilename(raw, [...extensions]);
          expect(name).not.toMatch(/[\p{Cc}\p{Cf}\u2028\u2029/\\<>:"|?*]/u);
          expect(name.startsWith('.')).toBe(false);
          expect(Buffer.byteLength(name)).toBeLessThanOrEqual(200);
          expect(Buffer.from(name).toString()).toBe(name);
          expect(extensions).toContain(name.split('.').pop());
          expect(name.length).toBeGreaterThan(extensions[0]!.length + 1);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('keeps an extension that names the type, in lower case, and appends one that does not', () => {
    expect(safeFilename('Photo.JPEG', ['jpg', 'jpeg'])).toBe('Photo.jpeg');
    expect(safeFilename('page.html', ['txt'])).toBe('page.html.txt');
    expect(safeFilename('  trailing dots... ', ['csv'])).toBe('trailing dots.csv');
    expect(safeFilename('a\u200bb\ufeffc.txt', ['txt'])).toBe('abc.txt');
    expect(safeFilename('line\r\nbreak.txt', ['txt'])).toBe('linebreak.txt');
    expect(safeFilename('lone\ud800surrogate.txt', ['txt'])).toBe('lonesurrogate.txt');
  });
});

describe('attachmentDisposition', () => {
  it('quotes a plain name and adds RFC 5987 filename* for anything else, escaping what attr-char excludes', () => {
    expect(attachmentDisposition('report.csv')).toBe('attachment; filename="report.csv"');
    expect(attachmentDisposition("it's (1)*.txt")).toBe(`attachment; filename="it's (1)*.txt"`);
    expect(attachmentDisposition('100%.txt')).toBe(
      `attachment; filename="100?.txt"; filename*=UTF-8''100%25.txt`,
    );
    expect(attachmentDisposition("résumé's.pdf")).toBe(
      `attachment; filename="r?sum?'s.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9%27s.pdf`,
    );
  });
});

describe('parseByteRange', () => {
  it('reads one range, clamps it, ignores what it does not understand and refuses ranges past the end', () => {
    expect(parseByteRange(undefined, 100)).toBeUndefined();
    expect(parseByteRange('bytes=0-9', 100)).toEqual({ start: 0, end: 9 });
    expect(parseByteRange('bytes=90-200', 100)).toEqual({ start: 90, end: 99 });
    expect(parseByteRange('bytes=95-', 100)).toEqual({ start: 95, end: 99 });
    expect(parseByteRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
    expect(parseByteRange('bytes=-1000', 100)).toEqual({ start: 0, end: 99 });
    expect(parseByteRange('bytes=100-', 100)).toBe('unsatisfiable');
    expect(parseByteRange('bytes=-0', 100)).toBe('unsatisfiable');
    for (const ignored of ['bytes=0-1,5-6', 'items=0-1', 'bytes=5-1', 'bytes=-', 'bytes=a-b']) {
      expect(parseByteRange(ignored, 100), ignored).toBeUndefined();
    }
  });
});

describe('decideStoredType', () => {
  const decide = (head: Uint8Array | string, declared: string | undefined, filename = 'f') =>
    decideStoredType({ head: typeof head === 'string' ? Buffer.from(head) : head, declared, filename });

  it('takes a binary signature over the declaration and text types from the declaration or the extension', async () => {
    expect(await decide(PNG_1PX, undefined)).toMatchObject({ mediaType: 'image/png', format: 'png' });
    expect(await decide(PNG_1PX, 'IMAGE/PNG; name=x')).toMatchObject({ mediaType: 'image/png' });
    expect(await decide(PDF_HEAD, 'application/octet-stream')).toMatchObject({
      mediaType: 'application/pdf',
    });
    expect(await decide('a,b', 'text/csv')).toMatchObject({ mediaType: 'text/csv', format: 'csv' });
    expect(await decide('a,b', 'application/csv')).toMatchObject({ mediaType: 'text/csv' });
    expect(await decide('a,b', undefined, 'x.csv')).toMatchObject({ mediaType: 'text/csv' });
    expect(await decide('# hi', undefined, 'x.md')).toMatchObject({ mediaType: 'text/markdown' });
    expect(await decide('<?xml version="1.0"?><svg/>', 'image/svg+xml')).toMatchObject({ format: 'svg' });
    expect(await decide(Buffer.from([0, 1, 2, 3]), undefined)).toMatchObject({
      mediaType: 'application/octet-stream',
    });
  });

  it('refuses what cannot be reconciled', async () => {
    await expect(decide(PNG_1PX, 'image/jpeg')).rejects.toMatchObject({ code: 'file_type_mismatch' });
    await expect(decide(PNG_1PX, 'text/plain')).rejects.toMatchObject({ code: 'file_type_mismatch' });
    await expect(decide('hello', 'application/pdf')).rejects.toMatchObject({ code: 'file_type_mismatch' });
    await expect(decide(Buffer.from([0, 1, 2, 3]), 'text/csv')).rejects.toMatchObject({
      code: 'file_type_mismatch',
    });
    await expect(decide(Buffer.from([0, 1, 2, 3]), 'image/gif')).rejects.toMatchObject({
      code: 'file_type_mismatch',
    });
  });
});
