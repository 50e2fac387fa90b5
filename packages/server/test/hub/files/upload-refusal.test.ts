import { afterEach, expect, it } from 'vitest';
import { Connection } from '../../http/keep-alive-connection.js';
import { snapshot } from '../../http/snapshot.js';
import { describeOnDialects, type HubTestServer, startHubServer } from '../support/hub-server.js';
import { multipartBody } from './file-client.js';

/**
 * An upload refused part-way through its file (over the cap, or of a type the assistant does not
 * take, known from the file's first chunk) on a keep-alive connection: the rest of the body, sent
 * after the refusal, is read and dropped, and the connection answers its next request. (The hub
 * fuzz met a reset on this route on PostgreSQL; `test/http/unread-body-unit.test.ts` holds the
 * mechanism this guards against, a body left paused by the reader that gave up on it.)
 */
const CAP = 300_000;
let server: HubTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describeOnDialects('an upload refused while its body is still arriving', () => {
  it.each([
    // Under the cap plus framing by Content-Length, so the refusal comes from reading the file.
    { why: 'over the cap', allowed: 'text/plain', size: CAP + 40_000, sendFirst: CAP + 10_000 },
    // Known from the file's first chunk (256 KiB): the rest of the body is still to come.
    { why: 'of a type not allowed', allowed: 'image/png', size: CAP - 1_000, sendFirst: 270_000 },
  ])('$why: drops the rest of the body and keeps the connection for the next request', async (refusal) => {
    server = await startHubServer({
      assistant: { files: { enabled: true, maxFileBytes: CAP, allowedTypes: [refusal.allowed] } },
    });
    const { client, conversation, stream } = await server.visit();
    stream.close();
    const port = Number(new URL(server.url).port);
    const { body, contentType } = multipartBody({
      bytes: Buffer.alloc(refusal.size, 'a'),
      type: 'text/plain',
      filename: 'big.txt',
    });
    // Enough for the server to refuse; the rest waits until the refusal is in.
    const first = body.subarray(0, refusal.sendFirst);
    const rest = body.subarray(first.length);

    const before = await snapshot(server.store);
    const connection = new Connection(port);
    await connection.write(
      [
        `POST /api/hub/conversations/${conversation}/files HTTP/1.1`,
        `host: 127.0.0.1:${port}`,
        `origin: ${client.origin}`,
        `authorization: Bearer ${client.token}`,
        `content-type: ${contentType}`,
        `content-length: ${body.length}`,
        '',
        '',
      ].join('\r\n'),
    );
    await connection.write(first);
    const refused = await connection.response();
    expect(refused?.status).toBeGreaterThanOrEqual(400);
    expect(refused?.status).toBeLessThan(500);
    expect(JSON.parse(refused!.body)).toMatchObject({ error: { code: expect.any(String) } });

    await connection.write(rest);
    await connection.write(`GET /healthz HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\n\r\n`);
    const next = await connection.response();
    expect(connection.error).toBeUndefined();
    expect(next?.status).toBe(200);
    expect(JSON.parse(next!.body)).toMatchObject({ status: 'ok' });
    connection.socket.destroy();
    expect(await snapshot(server.store)).toEqual(before);
  });
});
