import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { PDF_HEAD, PNG_1PX } from '../files/file-client.js';
import type { Input } from './hub-routes.js';

/**
 * Uploads the hub must refuse, as raw multipart bytes: not multipart, broken framing, the wrong
 * parts, a bad `interruptId`, content the assistant does not take (it allows PNG only), too large,
 * and valid PNGs aimed at conversations that are not the visitor's or without a valid session.
 */
interface Part {
  name: string;
  filename?: string;
  type?: string;
  content: Buffer | string;
}

function multipart(parts: Part[], boundary = `----fuzz${randomBytes(6).toString('hex')}`, close = true) {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename !== undefined ? `; filename="${part.filename}"` : ''}`;
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${part.type !== undefined ? `Content-Type: ${part.type}\r\n` : ''}\r\n`,
      ),
      Buffer.from(part.content),
      Buffer.from('\r\n'),
    );
  }
  if (close) chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    body: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

const filePart = (content: Buffer | string, type = 'image/png', filename = 'f.png'): Part => ({
  name: 'file',
  filename,
  type,
  content,
});

/** Bytes that are not a PNG the type check would accept: text, random bytes, a PDF, a PNG cut short. */
const notPng = fc.oneof(
  fc.string({ maxLength: 500 }),
  fc.uint8Array({ minLength: 1, maxLength: 2_000 }).map((bytes) => Buffer.from(bytes)),
  fc.constant(PDF_HEAD),
  fc.constant(PNG_1PX.subarray(0, 8)),
  fc.constant('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
  fc.constant(Buffer.from([0xff, 0xfe, 0x00, 0x41])),
);
const declaredType = fc.constantFrom(
  'image/png',
  'text/plain',
  'application/pdf',
  'image/svg+xml',
  'text/html',
  'application/octet-stream',
  undefined,
);
const hostileName = fc.oneof(
  fc
    .string({ maxLength: 40 })
    .map((name) => name.replaceAll('"', '').replaceAll('\r', '').replaceAll('\n', '')),
  fc.constantFrom(
    '../../etc/passwd',
    'a\u0000.png',
    '\u202egnp.exe',
    'CON',
    '.png',
    `${'n'.repeat(300)}.png`,
  ),
);

export function hostileUploads(t: { interruptIds: string[]; ids: fc.Arbitrary<string>; token: string }) {
  const png = () => multipart([filePart(PNG_1PX)]);
  return {
    'not multipart': fc
      .oneof(
        fc.constant({ body: '{"file":"x"}', headers: { 'content-type': 'application/json' } }),
        fc
          .constantFrom('text/plain', 'application/octet-stream', 'image/png', 'multipart/mixed; boundary=x')
          .map((type) => ({
            body: PNG_1PX,
            headers: { 'content-type': type },
          })),
        fc.constant({ headers: { 'content-type': undefined } }),
      )
      .map((input): Input => input),
    'broken framing': fc
      .oneof(
        fc.uint8Array({ minLength: 0, maxLength: 3_000 }).map((bytes) => ({
          body: Buffer.from(bytes),
          headers: { 'content-type': 'multipart/form-data; boundary=xyz' },
        })),
        fc
          .constantFrom(
            'multipart/form-data',
            'multipart/form-data; boundary=',
            'multipart/form-data; boundary="',
            `multipart/form-data; boundary=${'b'.repeat(200)}`,
          )
          .map((type) => ({ body: png().body, headers: { 'content-type': type } })),
        fc.integer({ min: 1, max: 160 }).map((cut) => {
          const { body, headers } = multipart([filePart(notPngText)]);
          return { body: body.subarray(0, Math.max(1, body.length - cut)), headers };
        }),
        fc.constant(multipart([filePart(notPngText)], 'abc', false)),
        fc.constant({
          body: multipart([filePart(notPngText)], 'abc').body,
          headers: { 'content-type': 'multipart/form-data; boundary=abd' },
        }),
        fc.constant({
          body: Buffer.from(
            '--b\r\nContent-Disposition: form-data; name="file"; filename="a"\r\nContent-Type: image/png\r\n',
          ),
          headers: { 'content-type': 'multipart/form-data; boundary=b' },
        }),
      )
      .map((input): Input => input),
    'wrong parts': fc
      .oneof(
        fc
          .string({ maxLength: 20 })
          .filter((name) => name !== 'file' && !name.includes('"'))
          .map((name) => multipart([{ ...filePart(PNG_1PX), name }])),
        fc.constant(multipart([{ name: 'interruptId', content: 'x' }])),
        fc.constant(multipart([{ name: 'file', content: 'a field, not a file' }])),
        fc.constant(multipart([])),
        fc
          .integer({ min: 5, max: 12 })
          .map((n) =>
            multipart([
              ...Array.from({ length: n }, (_, i) => ({ name: `f${i}`, content: 'v' })),
              filePart(notPngText),
            ]),
          ),
        fc.constant(multipart([filePart(notPngText), filePart(PNG_1PX)])),
      )
      .map((input): Input => input),
    'bad interruptId': fc
      .oneof(
        fc
          .oneof(
            fc.constantFrom(...t.interruptIds),
            fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/),
            fc.string({ maxLength: 40 }).filter((s) => !s.includes('\r')),
          )
          .map((id) => multipart([{ name: 'interruptId', content: id }, filePart(PNG_1PX)])),
        fc.constant(multipart([{ name: 'interruptId', content: 'i'.repeat(300) }, filePart(PNG_1PX)])),
        fc.constant(
          multipart([
            { name: 'interruptId', content: 'a' },
            { name: 'interruptId', content: 'b' },
            filePart(PNG_1PX),
          ]),
        ),
        fc.constant(
          multipart([
            { name: 'interruptId', content: 'x', filename: 'id.txt', type: 'text/plain' },
            filePart(PNG_1PX),
          ]),
        ),
      )
      .map((input): Input => input),
    'content the assistant does not take': fc
      .tuple(notPng, declaredType, hostileName)
      .map(([content, type, name]): Input => multipart([filePart(content, type as string, name)])),
    'over the file cap': fc
      .integer({ min: 300_001, max: 320_000 })
      .map((size): Input => multipart([filePart(Buffer.alloc(size, 'a'), 'text/plain', 'big.txt')])),
    'ids of nothing': t.ids.map((id): Input => ({ path: `/conversations/${id}/files`, ...png() })),
    credentials: fc
      .oneof(
        fc.constant({ authorization: undefined }),
        fc.stringMatching(/^[A-Za-z0-9_-]{1,80}$/).map((value) => ({ authorization: `Bearer ${value}` })),
        fc.constant({ authorization: `Bearer ${t.token}`, origin: 'http://evil.localhost' }),
      )
      .map((headers): Input => {
        const { body, headers: type } = png();
        return { body, headers: { ...type, ...headers } };
      }),
  };
}

const notPngText = 'plain text, not an image';
