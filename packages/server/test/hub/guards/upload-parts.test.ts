import { afterEach, expect, it } from 'vitest';
import { fileRows } from '../files/file-client.js';
import { describeOnDialects, type HubTestServer, startHubServer } from '../support/hub-server.js';
import { rowCounts } from '../support/rows.js';

let server: HubTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const BOUNDARY = '----dioscpartsboundary';

/** One multipart part, every byte of its headers chosen by the test. */
function part(name: string, value: string, filename?: string): string {
  const disposition = `form-data; name="${name}"${filename === undefined ? '' : `; filename="${filename}"`}`;
  const type = filename === undefined ? '' : 'Content-Type: text/plain\r\n';
  return `--${BOUNDARY}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n${value}\r\n`;
}

async function post(target: { token: string; conversation: string }, parts: string[]) {
  const response = await fetch(`${server!.url}/api/hub/conversations/${target.conversation}/files`, {
    method: 'POST',
    headers: {
      origin: server!.pageOrigin,
      authorization: `Bearer ${target.token}`,
      'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
    },
    body: `${parts.join('')}--${BOUNDARY}--\r\n`,
  });
  const body = (await response.json()) as { error?: { code: string; message: string }; fileId?: string };
  return { status: response.status, body };
}

/**
 * An upload is one file part named `file`, optionally after one text field `interruptId`. Every other
 * shape is refused with a stable code and human message, and no file row or chunk is stored.
 */
describeOnDialects('the parts of an upload', () => {
  async function visitor() {
    server = await startHubServer();
    const { client, conversation, stream } = await server.visit();
    stream.close();
    return { token: client.token!, conversation };
  }

  it('refuses a repeated, non-text or over-long interruptId and a misnamed or missing file part, storing nothing', async () => {
    const target = await visitor();
    const interruptId = 'tc_00000000-0000-0000-0000-000000000000';
    const once = 'The field "interruptId" must be given once, as text.';
    const before = await rowCounts(server!.store);
    for (const [label, parts, status, code, message] of [
      [
        'two interruptId fields',
        [part('interruptId', interruptId), part('interruptId', interruptId), part('file', 'hello', 'a.txt')],
        400,
        'invalid_input',
        once,
      ],
      [
        'interruptId as a file',
        [part('interruptId', interruptId, 'id.txt'), part('file', 'hello', 'a.txt')],
        400,
        'invalid_input',
        'The upload needs one file part named "file".',
      ],
      [
        'interruptId over the field size',
        [part('interruptId', 'x'.repeat(300)), part('file', 'hello', 'a.txt')],
        400,
        'invalid_input',
        once,
      ],
      [
        'the file part under another name',
        [part('upload', 'hello', 'a.txt')],
        400,
        'invalid_input',
        'The upload needs one file part named "file".',
      ],
      ['no file at all', [part('interruptId', interruptId)], 400, 'invalid_input', undefined],
    ] as const) {
      const reply = await post(target, [...parts]);
      expect([reply.status, reply.body.error?.code], label).toEqual([status, code]);
      expect(reply.body.error?.message, label).toBeTruthy();
      if (message) expect(reply.body.error?.message, label).toBe(message);
    }
    expect(await rowCounts(server!.store)).toEqual(before);
    expect((await fileRows(server!.store)).files).toEqual([]);
  });

  it('refuses two file parts and stores neither', async () => {
    const target = await visitor();
    const before = await rowCounts(server!.store);
    const reply = await post(target, [part('file', 'first', 'one.txt'), part('file', 'second', 'two.txt')]);
    expect([reply.status, reply.body.error?.code, reply.body.error?.message]).toEqual([
      400,
      'invalid_input',
      'The upload takes one file part and nothing after it.',
    ]);
    const { files } = await fileRows(server!.store);
    expect(files).toEqual([]);
    expect(await rowCounts(server!.store)).toEqual(before);
  });

  it('takes an interruptId given once, as text, before the file', async () => {
    const target = await visitor();
    const before = await rowCounts(server!.store);
    const reply = await post(target, [
      part('interruptId', 'tc_00000000-0000-0000-0000-000000000000'),
      part('file', 'hello', 'a.txt'),
    ]);
    expect([reply.status, reply.body.error?.code, reply.body.error?.message]).toEqual([
      404,
      'not_found',
      'There is no such request.',
    ]);
    expect(await rowCounts(server!.store)).toEqual(before);
  });
});
