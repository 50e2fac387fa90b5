import { afterEach, expect, it } from 'vitest';
import { describeOnDialects, type HubTestServer, startHubServer } from '../support/hub-server.js';
import { downloadFile, fileRows, uploadFile } from './file-client.js';

let server: HubTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const ATTACKS: { name: string; raw: string; stored: string }[] = [
  { name: 'a relative path', raw: '../../etc/passwd', stored: 'passwd.txt' },
  { name: 'a Windows path', raw: '..\\..\\Windows\\System32\\drivers.txt', stored: 'drivers.txt' },
  { name: 'a NUL byte', raw: 'report\u0000.html.txt', stored: 'report.html.txt' },
  { name: 'an RTL override', raw: 'invoice\u202Etxt.exe', stored: 'invoicetxt.exe.txt' },
  { name: 'a device name', raw: 'CON.txt', stored: '_CON.txt' },
  { name: 'dots only', raw: '...', stored: 'file.txt' },
  { name: 'a hidden file', raw: '.bashrc', stored: 'bashrc.txt' },
];

async function visitor() {
  server = await startHubServer();
  return server.visit();
}

describeOnDialects('filename attacks', () => {
  it('stores, describes and serves a safe name for each attack, keeping the original only as display text', async () => {
    const { client, conversation } = await visitor();
    for (const attack of ATTACKS) {
      const uploaded = await uploadFile(client, conversation, {
        bytes: 'data',
        filename: attack.raw,
        type: 'text/plain',
        encodedName: true,
      });
      expect(uploaded.status, attack.name).toBe(201);
      expect(uploaded.body.filename, attack.name).toBe(attack.stored);
      const got = await downloadFile(client, uploaded.body.downloadUrl);
      expect(got.headers.get('content-disposition'), attack.name).toBe(
        `attachment; filename="${attack.stored}"`,
      );
    }
    // A name that decodes to a line break makes busboy take the part for a field: no file at all.
    const splitting = await uploadFile(client, conversation, {
      bytes: 'data',
      filename: 'a\r\nContent-Type: text/html\r\n.txt',
      type: 'text/plain',
      encodedName: true,
    });
    expect([splitting.status, splitting.body.error?.code]).toEqual([400, 'invalid_input']);
    const { files } = await fileRows(server!.store);
    expect(files).toHaveLength(ATTACKS.length);
    // Busboy keeps only the last path segment of what it is sent; the rest is the hub's doing.
    expect(files.map((row) => row.original_name)).toContain('invoice\u202Etxt.exe');
    for (const row of files) expect(row.original_name).not.toContain('\u0000');
  });

  it('cuts 10 KB names to 200 bytes at a character boundary, keeping the extension, and encodes them per RFC 5987', async () => {
    const { client, conversation } = await visitor();
    const ascii = await uploadFile(client, conversation, {
      bytes: 'x',
      filename: `${'a'.repeat(10_000)}.txt`,
      type: 'text/plain',
    });
    expect(ascii.status).toBe(201);
    expect(ascii.body.filename).toBe(`${'a'.repeat(196)}.txt`);

    const wide = await uploadFile(client, conversation, {
      bytes: 'x',
      filename: `${'é'.repeat(5_000)}.csv`,
      type: 'text/csv',
      encodedName: true,
    });
    const name = wide.body.filename;
    expect(Buffer.byteLength(name)).toBeLessThanOrEqual(200);
    expect(name).toBe(`${'é'.repeat(98)}.csv`);
    const got = await downloadFile(client, wide.body.downloadUrl);
    expect(got.headers.get('content-disposition')).toBe(
      `attachment; filename="${'?'.repeat(98)}.csv"; filename*=UTF-8''${'%C3%A9'.repeat(98)}.csv`,
    );
    const { files } = await fileRows(server!.store);
    expect(files.map((row) => [...row.original_name].length)).toEqual([1_000, 1_000]);
  });
});
