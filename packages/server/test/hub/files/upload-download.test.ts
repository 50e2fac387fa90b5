import { afterEach, expect, it } from 'vitest';
import { describeOnDialects, type HubTestServer, startHubServer } from '../support/hub-server.js';
import { rowCounts } from '../support/rows.js';
import { downloadFile, fileRows, PNG_1PX, uploadFile } from './file-client.js';

let server: HubTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function visitor(options: Parameters<typeof startHubServer>[0] = {}) {
  server ??= await startHubServer(options);
  return server.visit();
}

const SAFE_HEADERS = {
  'x-content-type-options': 'nosniff',
  'cache-control': 'private, no-store',
  'content-security-policy': "sandbox; default-src 'none'",
};

function expectSafeHeaders(headers: Headers) {
  for (const [name, value] of Object.entries(SAFE_HEADERS)) expect(headers.get(name), name).toBe(value);
  expect(headers.get('content-disposition')).toMatch(/^attachment; /);
}

describeOnDialects('file upload and download', () => {
  it('stores an upload, answers its descriptor and serves it back to the same visitor with safe headers', async () => {
    const { client, conversation } = await visitor();
    const uploaded = await uploadFile(client, conversation, {
      bytes: PNG_1PX,
      filename: 'chart.png',
      type: 'image/png',
    });
    expect(uploaded.status).toBe(201);
    const file = uploaded.body;
    expect(Object.keys(file).sort()).toEqual(['downloadUrl', 'fileId', 'filename', 'format', 'sizeBytes']);
    expect(file).toMatchObject({ filename: 'chart.png', format: 'png', sizeBytes: PNG_1PX.length });
    expect(file.fileId).toMatch(/^fil_[0-9a-f-]{36}$/);
    expect(file.downloadUrl).toBe(`/api/hub/files/${file.fileId}`);

    const got = await downloadFile(client, file.downloadUrl);
    expect(got.status).toBe(200);
    expect(got.body.equals(PNG_1PX)).toBe(true);
    expectSafeHeaders(got.headers);
    expect(got.headers.get('content-type')).toBe('image/png');
    expect(got.headers.get('content-disposition')).toBe('attachment; filename="chart.png"');
    expect(got.headers.get('content-length')).toBe(String(PNG_1PX.length));
    expect(got.headers.get('accept-ranges')).toBe('bytes');

    const { files, chunks } = await fileRows(server!.store);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatchObject({
      status: 'complete',
      media_type: 'image/png',
      conversation_id: conversation,
      source: 'upload',
      interrupt_id: null,
      size_bytes: PNG_1PX.length,
      chunk_count: 1,
    });
    expect(chunks).toEqual([{ file_id: file.fileId, seq: 0 }]);
  });

  it('streams a file larger than one chunk into 256 KiB rows and serves byte ranges across them', async () => {
    const { client, conversation } = await visitor();
    const text = Array.from({ length: 40_000 }, (_, i) => `${i},row ${i}\n`).join('');
    const bytes = Buffer.from(text);
    expect(bytes.length).toBeGreaterThan(2 * 256 * 1024);
    const { body: file } = await uploadFile(client, conversation, {
      bytes,
      filename: 'rows.csv',
      type: 'text/csv',
    });
    expect(file).toMatchObject({ format: 'csv', sizeBytes: bytes.length });
    const { chunks } = await fileRows(server!.store);
    expect(chunks.map((chunk) => chunk.seq).sort()).toEqual([0, 1, 2]);

    const whole = await downloadFile(client, file.downloadUrl);
    expect(whole.body.equals(bytes)).toBe(true);
    expect(whole.headers.get('content-type')).toBe('text/csv; charset=utf-8');

    const start = 256 * 1024 - 10;
    const part = await downloadFile(client, file.downloadUrl, { range: `bytes=${start}-${start + 29}` });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes ${start}-${start + 29}/${bytes.length}`);
    expect(part.body.equals(bytes.subarray(start, start + 30))).toBe(true);
    expectSafeHeaders(part.headers);
    const tail = await downloadFile(client, file.downloadUrl, { range: 'bytes=-5' });
    expect(tail.body.equals(bytes.subarray(-5))).toBe(true);
    const past = await downloadFile(client, file.downloadUrl, { range: `bytes=${bytes.length}-` });
    expect(past.status).toBe(416);
    expect(past.error?.code).toBe('range_not_satisfiable');
    expect(past.headers.get('content-range')).toBe(`bytes */${bytes.length}`);
  });

  it('downloads an uploaded HTML page and SVG as attachments under a sandbox CSP, never inline', async () => {
    const { client, conversation } = await visitor({
      assistant: { files: { allowedTypes: ['text/html', 'image/svg+xml'] } },
    });
    const html =
      '<!doctype html><html><body><script>parent.postMessage(document.cookie, "*")</script></body></html>';
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.domain)</script></svg>';
    for (const [bytes, name, type, format] of [
      [html, 'page.html', 'text/html', 'html'],
      [svg, 'logo.svg', 'image/svg+xml', 'svg'],
    ] as const) {
      const { status, body: file } = await uploadFile(client, conversation, { bytes, filename: name, type });
      expect(status).toBe(201);
      expect(file.format).toBe(format);
      const got = await downloadFile(client, file.downloadUrl);
      expect(got.body.toString()).toBe(bytes);
      expectSafeHeaders(got.headers);
      expect(got.headers.get('content-disposition')).toBe(`attachment; filename="${name}"`);
      expect(got.headers.get('content-type')).toBe(`${type}; charset=utf-8`);
    }
  });

  it("refuses another visitor, a request without a session, a forged id and another visitor's conversation", async () => {
    const { client, conversation } = await visitor();
    const { body: file } = await uploadFile(client, conversation, { bytes: 'hello', filename: 'a.txt' });
    const before = await rowCounts(server!.store);

    const stranger = server!.client();
    await stranger.open(server!.assistant.publishableKey);
    const foreign = await downloadFile(stranger, file.downloadUrl);
    expect([foreign.status, foreign.error?.code]).toEqual([404, 'not_found']);
    expect(foreign.body.toString()).not.toContain('hello');

    const anonymous = server!.client();
    const none = await downloadFile(anonymous, file.downloadUrl);
    expect([none.status, none.error?.code]).toEqual([401, 'unauthenticated']);

    for (const forged of ['fil_00000000-0000-0000-0000-000000000000', 'fil_x', '..%2F..%2Fetc%2Fpasswd']) {
      const got = await downloadFile(client, `/api/hub/files/${forged}`);
      expect([got.status, got.error?.code], forged).toEqual([404, 'not_found']);
    }

    const intoForeign = await uploadFile(stranger, conversation, { bytes: 'sneaky', filename: 'b.txt' });
    expect([intoForeign.status, intoForeign.body.error?.code]).toEqual([404, 'not_found']);
    const counts = await rowCounts(server!.store);
    expect({ ...counts, hub_visitor_sessions: 0 }).toEqual({ ...before, hub_visitor_sessions: 0 });
    // The owner still reads it.
    expect((await downloadFile(client, file.downloadUrl)).body.toString()).toBe('hello');
  });

  it('refuses an expired file, before and after the pruner removed its bytes', async () => {
    server = await startHubServer({ realClock: false, assistant: { files: { retentionMs: 60_000 } } });
    const { client, conversation } = await visitor();
    const { body: file } = await uploadFile(client, conversation, {
      bytes: 'short-lived',
      filename: 'a.txt',
    });
    expect((await downloadFile(client, file.downloadUrl)).status).toBe(200);
    server.clock.advance(60_001);
    const expired = await downloadFile(client, file.downloadUrl);
    expect([expired.status, expired.error?.code]).toEqual([410, 'file_expired']);
    await server.app.diosc.hub!.services.files.prune();
    const pruned = await downloadFile(client, file.downloadUrl);
    expect([pruned.status, pruned.error?.code]).toEqual([410, 'file_expired']);
  });
});
