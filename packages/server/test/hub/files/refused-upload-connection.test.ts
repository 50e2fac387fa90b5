import { connect, type Socket } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import {
  describeOnDialects,
  type HubTestServer,
  PAGE_ORIGIN,
  startHubServer,
} from '../support/hub-server.js';
import { rowCounts } from '../support/rows.js';
import { multipartBody, PDF_HEAD } from './file-client.js';

let server: HubTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** What a raw socket has received, read as status lines (one per answer). */
function reader(socket: Socket) {
  let received = '';
  const waiters: (() => void)[] = [];
  const wake = () => {
    for (const each of waiters.splice(0)) each();
  };
  socket.on('data', (data) => {
    received += data.toString('latin1');
    wake();
  });
  socket.on('close', wake);
  return {
    /** The status lines of the first `count` answers, or fewer if the connection closed first. */
    async statuses(count: number): Promise<string[]> {
      for (;;) {
        const lines = received.match(/HTTP\/1\.1 \d{3}/g) ?? [];
        if (lines.length >= count || socket.destroyed) return lines;
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
  };
}

/**
 * A refused upload is answered before its body is all in (past the cap; a type known from its
 * first chunk). The rest of the body must still be read and dropped, and the keep-alive connection
 * go on: the client's next request on it is answered.
 */
describeOnDialects('a refused upload leaves its connection usable', () => {
  it.each([
    { refusal: 'over the cap', bytes: Buffer.alloc(340_000, 'a'), cut: 310_000, status: 413 },
    {
      refusal: 'content that is not its declared type',
      bytes: Buffer.concat([PDF_HEAD, Buffer.alloc(290_000, 'a')]),
      cut: 270_000,
      status: 422,
    },
  ])(
    '$refusal: answered early, the rest of the body is dropped and the next request answered',
    async ({ bytes, cut, status }) => {
      server = await startHubServer({
        assistant: { files: { maxFileBytes: 300_000, allowedTypes: ['text/plain', 'image/png'] } },
      });
      const target = await server.visit();
      const before = await rowCounts(server.store);
      const { body, contentType } = multipartBody({ bytes, filename: 'f.txt', type: 'text/plain' });
      const { hostname, port } = new URL(target.client.base);
      const host = `${hostname}:${port}`;
      const socket = connect(Number(port), hostname);
      await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
      const answers = reader(socket);
      socket.write(
        `POST /api/hub/conversations/${target.conversation}/files HTTP/1.1\r\n` +
          `Host: ${host}\r\nOrigin: ${PAGE_ORIGIN}\r\nAuthorization: Bearer ${target.client.token}\r\n` +
          `Content-Type: ${contentType}\r\nContent-Length: ${body.length}\r\n\r\n`,
      );
      socket.write(body.subarray(0, cut));
      expect(await answers.statuses(1)).toEqual([`HTTP/1.1 ${status}`]);
      socket.write(body.subarray(cut));
      socket.write(`GET /healthz HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
      expect(await answers.statuses(2)).toEqual([`HTTP/1.1 ${status}`, 'HTTP/1.1 200']);
      socket.destroy();
      // Refused, so nothing of it was kept (no file row, no chunk).
      expect(await rowCounts(server.store)).toEqual(before);
    },
  );
});
