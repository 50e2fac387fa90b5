import { randomBytes } from 'node:crypto';
import type { FileDescriptor, WireError } from '@diosc/protocol';
import type { Store } from '../../../src/store/dialect.js';
import type { HubClient } from '../support/hub-server.js';

export interface Upload {
  bytes: Uint8Array | string;
  filename?: string;
  /** The part's Content-Type (the declared type); omitted when undefined. */
  type?: string;
  interruptId?: string;
  /** Sends the name as RFC 5987 `filename*` (any character, NUL included), as some clients do. */
  encodedName?: boolean;
}

export interface Sent<T> {
  status: number;
  headers: Headers;
  body: T;
}

/**
 * A multipart upload built by hand, so a test controls every byte of the part headers (names with
 * NUL or U+202E, missing types) — what `FormData` in a page would send, and what it would not.
 */
export function multipartBody(upload: Upload): { body: Buffer; contentType: string } {
  const boundary = `----diosc${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  if (upload.interruptId !== undefined) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="interruptId"\r\n\r\n${upload.interruptId}\r\n`,
      ),
    );
  }
  const name = upload.filename ?? 'file.bin';
  const disposition = upload.encodedName
    ? `filename*=UTF-8''${encodeURIComponent(name)}`
    : `filename="${name.replaceAll('"', '%22')}"`;
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; ${disposition}\r\n` +
        (upload.type !== undefined ? `Content-Type: ${upload.type}\r\n` : '') +
        '\r\n',
    ),
    typeof upload.bytes === 'string' ? Buffer.from(upload.bytes) : Buffer.from(upload.bytes),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

export async function uploadFile(
  client: HubClient,
  conversationId: string,
  upload: Upload,
): Promise<Sent<FileDescriptor & { error?: WireError }>> {
  const { body, contentType } = multipartBody(upload);
  const response = await fetch(`${client.base}/api/hub/conversations/${conversationId}/files`, {
    method: 'POST',
    headers: {
      origin: client.origin,
      'content-type': contentType,
      ...(client.token ? { authorization: `Bearer ${client.token}` } : {}),
    },
    body: new Uint8Array(body),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as never };
}

/** GET a descriptor's downloadUrl with the client's session (or none), returning the raw bytes. */
export async function downloadFile(
  client: HubClient,
  downloadUrl: string,
  headers: Record<string, string> = {},
): Promise<Sent<Buffer> & { error?: WireError }> {
  const response = await fetch(`${client.base}${downloadUrl}`, {
    headers: {
      origin: client.origin,
      ...(client.token ? { authorization: `Bearer ${client.token}` } : {}),
      ...headers,
    },
  });
  const body = Buffer.from(await response.arrayBuffer());
  const error = response.headers.get('content-type')?.startsWith('application/json')
    ? (JSON.parse(body.toString()) as { error?: WireError }).error
    : undefined;
  return { status: response.status, headers: response.headers, body, ...(error ? { error } : {}) };
}

/** Rows of the two file tables, for "nothing was stored". */
export async function fileRows(store: Store) {
  const files = await store.db.selectFrom('hub_files').selectAll().orderBy('created_at').execute();
  const chunks = await store.db.selectFrom('hub_file_chunks').select(['file_id', 'seq']).execute();
  return { files, chunks };
}

/** The smallest valid PNG: one transparent pixel. */
export const PNG_1PX = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fe0dd4b3a70000000049454e44ae426082',
  'hex',
);

/** A PDF's first bytes are enough for the type check. */
export const PDF_HEAD = Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< >>\nendobj\n', 'latin1');
