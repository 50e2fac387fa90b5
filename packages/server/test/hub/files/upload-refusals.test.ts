import { afterEach, expect, it } from 'vitest';
import type { HubClient } from '../support/hub-server.js';
import { describeOnDialects, type HubTestServer, startHubServer } from '../support/hub-server.js';
import { rowCounts } from '../support/rows.js';
import { fileRows, multipartBody, PDF_HEAD, PNG_1PX, type Upload, uploadFile } from './file-client.js';

let server: HubTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function visitor(files: Record<string, unknown> = {}) {
  server ??= await startHubServer({ assistant: { files } });
  return server.visit();
}

/** Uploads, expects the refusal, and checks that no table changed (files and chunks included). */
async function refused(
  target: { client: HubClient; conversation: string },
  upload: Upload,
  expected: { status: number; code: string },
) {
  const before = await rowCounts(server!.store);
  const reply = await uploadFile(target.client, target.conversation, upload);
  expect({ status: reply.status, code: reply.body.error?.code }).toEqual(expected);
  expect(reply.body.error?.message).toBeTruthy();
  expect(reply.body.error?.retryable).toBe(false);
  expect(await rowCounts(server!.store)).toEqual(before);
  return reply.body.error!;
}

describeOnDialects('upload refusals store nothing', () => {
  it('refuses every upload when the assistant does not accept files', async () => {
    const target = await visitor({ enabled: false });
    await refused(target, { bytes: 'hi', filename: 'a.txt' }, { status: 403, code: 'files_not_enabled' });
    expect((await fileRows(server!.store)).files).toEqual([]);
  });

  it('refuses uploads to an assistant created without a files setting: new assistants start with them off', async () => {
    server = await startHubServer();
    const storefront = await server.createAssistant({
      name: 'Storefront',
      model: { provider: 'scripted', id: 'test' },
      allowedOrigins: [server.pageOrigin],
    });
    expect(storefront.config.files).toMatchObject({ enabled: false });
    const target = await server.visit(storefront);
    const error = await refused(
      target,
      { bytes: PNG_1PX, filename: 'a.png', type: 'image/png' },
      { status: 403, code: 'files_not_enabled' },
    );
    expect(error.message).toBe('This assistant does not accept files from visitors.');
    expect((await fileRows(server.store)).files).toEqual([]);
  });

  it('stops a file over the per-file cap while it streams, and one whose Content-Length is plainly over it', async () => {
    const target = await visitor({ maxFileBytes: 300_000 });
    // Over the cap by one byte: refused at that byte, after a whole 256 KiB chunk was already written.
    const error = await refused(
      target,
      { bytes: Buffer.alloc(300_001, 'a'), filename: 'big.txt', type: 'text/plain' },
      { status: 413, code: 'file_too_large' },
    );
    expect(error.message).toContain('300000');
    await refused(
      target,
      { bytes: Buffer.alloc(600_000, 'a'), filename: 'bigger.txt' },
      { status: 413, code: 'file_too_large' },
    );
    // Exactly at the cap is fine.
    expect(
      (
        await uploadFile(target.client, target.conversation, {
          bytes: Buffer.alloc(300_000, 'a'),
          filename: 'ok.txt',
        })
      ).status,
    ).toBe(201);
  });

  it('refuses what would pass the conversation, visitor or assistant quota', async () => {
    const first = await visitor({
      maxConversationBytes: 1_000,
      maxVisitorBytes: 1_500,
      maxAssistantBytes: 2_000,
    });
    const file = (size: number, name: string): Upload => ({ bytes: Buffer.alloc(size, 'x'), filename: name });
    expect((await uploadFile(first.client, first.conversation, file(800, 'a.txt'))).status).toBe(201);
    const conversation = await refused(first, file(201, 'b.txt'), {
      status: 413,
      code: 'file_quota_exceeded',
    });
    expect(conversation.details).toMatchObject({ roomBytes: 200 });

    // The same visitor in a second conversation: the visitor's 1,500 bytes are the bound now.
    const second = { client: first.client, conversation: await first.client.conversation() };
    expect((await uploadFile(second.client, second.conversation, file(700, 'c.txt'))).status).toBe(201);
    await refused(second, file(1, 'd.txt'), { status: 413, code: 'file_quota_exceeded' });

    // Another visitor: the assistant's 2,000 bytes (1,500 used) are the bound.
    const other = await visitor();
    expect((await uploadFile(other.client, other.conversation, file(500, 'e.txt'))).status).toBe(201);
    await refused(other, file(1, 'f.txt'), { status: 413, code: 'file_quota_exceeded' });
    const { files } = await fileRows(server!.store);
    expect(files.map((row) => row.size_bytes).reduce((a, b) => a + b, 0)).toBe(2_000);
  });

  it('lets concurrent uploads together stay within the conversation quota', async () => {
    const target = await visitor({ maxConversationBytes: 2_000 });
    const replies = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        uploadFile(target.client, target.conversation, {
          bytes: Buffer.alloc(600, 'q'),
          filename: `${i}.txt`,
        }),
      ),
    );
    const stored = replies.filter((reply) => reply.status === 201);
    expect(stored).toHaveLength(3);
    expect(replies.filter((reply) => reply.body.error?.code === 'file_quota_exceeded')).toHaveLength(3);
    const { files, chunks } = await fileRows(server!.store);
    expect(files.map((row) => row.status)).toEqual(['complete', 'complete', 'complete']);
    expect(chunks).toHaveLength(3);
  });

  it('refuses a stored type the assistant does not allow', async () => {
    const target = await visitor({ allowedTypes: ['text/plain', 'image/png'] });
    await refused(
      target,
      { bytes: PDF_HEAD, filename: 'doc.pdf', type: 'application/pdf' },
      { status: 415, code: 'file_type_not_allowed' },
    );
    // The declared type does not decide: a PDF declared as "any bytes" is still a PDF.
    await refused(
      target,
      { bytes: PDF_HEAD, filename: 'doc.bin', type: 'application/octet-stream' },
      { status: 415, code: 'file_type_not_allowed' },
    );
    await refused(
      target,
      { bytes: 'a,b\n1,2\n', filename: 'table.csv', type: 'text/csv' },
      { status: 415, code: 'file_type_not_allowed' },
    );
  });

  it('refuses content that contradicts its declared type', async () => {
    const target = await visitor({
      allowedTypes: ['text/plain', 'image/png', 'image/jpeg', 'application/pdf'],
    });
    const mismatch = { status: 422, code: 'file_type_mismatch' };
    await refused(target, { bytes: PNG_1PX, filename: 'notes.txt', type: 'text/plain' }, mismatch);
    await refused(target, { bytes: PNG_1PX, filename: 'photo.jpg', type: 'image/jpeg' }, mismatch);
    await refused(target, { bytes: 'just text', filename: 'chart.png', type: 'image/png' }, mismatch);
    await refused(target, { bytes: 'just text', filename: 'doc.pdf', type: 'application/pdf' }, mismatch);
    await refused(
      target,
      { bytes: Buffer.from([0xff, 0xfe, 0x00, 0x01, 0x02]), filename: 'x.txt', type: 'text/plain' },
      mismatch,
    );
    // Invalid UTF-8 after the first chunk: found while streaming, and the written chunk is removed.
    const late = Buffer.concat([Buffer.alloc(300_000, 'a'), Buffer.from([0xc3, 0x28]), Buffer.from('tail')]);
    await refused(target, { bytes: late, filename: 'late.txt', type: 'text/plain' }, mismatch);
    // A reconcilable pair is not a mismatch: image/jpg is image/jpeg's alias, octet-stream says nothing.
    expect(
      (
        await uploadFile(target.client, target.conversation, {
          bytes: PNG_1PX,
          filename: 'a.png',
          type: 'application/octet-stream',
        })
      ).body.format,
    ).toBe('png');
  });

  it('refuses a body that is not multipart, a form without a file part, and an empty file', async () => {
    const target = await visitor();
    const before = await rowCounts(server!.store);
    const json = await target.client.request('POST', `/conversations/${target.conversation}/files`, {
      file: 'aGk=',
    });
    expect([json.status, (json.body as { error: { code: string } }).error.code]).toEqual([
      415,
      'unsupported_media_type',
    ]);
    const { body, contentType } = multipartBody({ bytes: 'x', filename: 'a.txt' });
    const misnamed = await fetch(`${target.client.base}/api/hub/conversations/${target.conversation}/files`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${target.client.token}`,
        'content-type': contentType,
      },
      body: new Uint8Array(
        Buffer.from(body.toString('latin1').replace('name="file"', 'name="other"'), 'latin1'),
      ),
    });
    expect([misnamed.status, ((await misnamed.json()) as { error: { code: string } }).error.code]).toEqual([
      400,
      'invalid_input',
    ]);
    expect(await rowCounts(server!.store)).toEqual(before);
    await refused(target, { bytes: '', filename: 'empty.txt' }, { status: 400, code: 'invalid_input' });
  });

  it('takes exactly one file part and only the documented fields; anything else stores nothing', async () => {
    const target = await visitor();
    const big = Buffer.alloc(300_000, 'a');
    type Part = { name: string; filename?: string; content: string | Buffer };
    const file = (content: string | Buffer = 'hello', name = 'file'): Part => ({
      name,
      filename: 'a.txt',
      content,
    });
    const field = (name: string, content = 'x'): Part => ({ name, content });
    const cases: [string, Part[], RegExp][] = [
      ['a second file part', [file(), file('second')], /one file part and nothing after it/],
      ['a second file after a large first one', [file(big), file(big)], /one file part and nothing after it/],
      [
        'a second file under another name',
        [file(), file('other', 'extra')],
        /one file part and nothing after it/,
      ],
      ['an unknown field before the file', [field('admin', 'true'), file()], /unknown field "admin"/],
      [
        'an unknown field after the file',
        [file(big), field('admin', 'true')],
        /one file part and nothing after it/,
      ],
      [
        'interruptId after the file',
        [file(), field('interruptId', 'tc_1')],
        /one file part and nothing after it/,
      ],
      ['interruptId twice', [field('interruptId', 'a'), field('interruptId', 'b'), file()], /given once/],
      ['a text field named file', [field('file', 'hello')], /must be a file/],
      ['no part at all', [], /one file part named "file"/],
    ];
    const before = await rowCounts(server!.store);
    for (const [label, parts, message] of cases) {
      const boundary = `----diosc${label.length}x${parts.length}`;
      const chunks: Buffer[] = [];
      for (const part of parts) {
        const disposition =
          part.filename === undefined
            ? `form-data; name="${part.name}"`
            : `form-data; name="${part.name}"; filename="${part.filename}"`;
        chunks.push(
          Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n\r\n`),
          Buffer.from(part.content),
          Buffer.from('\r\n'),
        );
      }
      chunks.push(Buffer.from(`--${boundary}--\r\n`));
      const response = await fetch(
        `${target.client.base}/api/hub/conversations/${target.conversation}/files`,
        {
          method: 'POST',
          headers: {
            origin: target.client.origin,
            authorization: `Bearer ${target.client.token}`,
            'content-type': `multipart/form-data; boundary=${boundary}`,
          },
          body: new Uint8Array(Buffer.concat(chunks)),
        },
      );
      const body = (await response.json()) as { error: { code: string; message: string } };
      expect([label, response.status, body.error.code]).toEqual([label, 400, 'invalid_input']);
      expect(body.error.message, label).toMatch(message);
    }
    expect(await rowCounts(server!.store)).toEqual(before);
    expect(await fileRows(server!.store)).toEqual({ files: [], chunks: [] });
    // The documented form still works, on the same server.
    const ok = await uploadFile(target.client, target.conversation, { bytes: 'fine', filename: 'ok.txt' });
    expect(ok.status).toBe(201);
  });

  it('refuses an upload for an interrupt that is unknown, not pending or in another conversation', async () => {
    const target = await visitor();
    await refused(
      target,
      { bytes: 'x', filename: 'a.txt', interruptId: 'tc_00000000-0000-0000-0000-000000000000' },
      { status: 404, code: 'not_found' },
    );
    await refused(
      target,
      { bytes: 'x', filename: 'a.txt', interruptId: 'not-an-id' },
      { status: 404, code: 'not_found' },
    );
  });
});
