import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AUDIT_KINDS, type AuditRecordView } from '@diosc/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliTestEnv, runDiosc } from './support/run-diosc.js';

const diosc = (dir: string, ...args: string[]) =>
  runDiosc(args, cliTestEnv(dir, { DIOSC_INSTANCE_ID: 'cli-test' }));

const linesOf = (stdout: string) =>
  stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as AuditRecordView);

describe('diosc audit export', () => {
  const dir = mkdtempSync(join(tmpdir(), 'diosc-audit-cli-'));
  const tokens: string[] = [];
  let id = '';

  beforeAll(async () => {
    // The first command creates the owner (and says so on stdout), as `npm start` would.
    expect((await diosc(dir, 'connections', 'list')).code).toBe(0);
    const created = await diosc(
      dir,
      'connections',
      'create',
      '--name',
      'Bot',
      '--grant',
      'notes:items_list',
      '--json',
    );
    expect(created.code).toBe(0);
    const body = JSON.parse(created.stdout) as { connection: { id: string }; token: string };
    id = body.connection.id;
    tokens.push(body.token);
    const rotated = await diosc(dir, 'connections', 'rotate', id, '--json');
    tokens.push((JSON.parse(rotated.stdout) as { token: string }).token);
    expect((await diosc(dir, 'connections', 'revoke', id)).code).toBe(0);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes one JSON record a line, oldest first, with who, what, when, outcome and instance — and no token', async () => {
    const exported = await diosc(dir, 'audit', 'export', '--since', '1h');
    expect(exported.code).toBe(0);
    expect(exported.stderr).toBe('');
    const records = linesOf(exported.stdout);
    expect(records.map((record) => [record.kind, record.subject, record.outcome])).toEqual([
      ['grant_change', id, 'created'],
      ['grant_change', id, 'rotated'],
      ['grant_change', id, 'revoked'],
    ]);
    for (const record of records) {
      expect(AUDIT_KINDS).toContain(record.kind);
      expect(record).toMatchObject({ actor: { kind: 'owner' }, instance: 'cli-test', assistantId: null });
      expect(Date.parse(record.at)).toBeGreaterThan(Date.now() - 3_600_000);
    }
    for (const token of tokens) expect(exported.stdout).not.toContain(token);
  });

  it('filters by time and assistant, and refuses a missing or malformed time', async () => {
    expect(
      (await diosc(dir, 'audit', 'export', '--since', '2000-01-01', '--until', '2000-01-02')).stdout,
    ).toBe('');
    const all = linesOf((await diosc(dir, 'audit', 'export', '--since', '2000-01-01')).stdout);
    expect(all).toHaveLength(3);
    const until = linesOf(
      (await diosc(dir, 'audit', 'export', '--since', '2000-01-01', '--until', all[2]!.at)).stdout,
    );
    expect(until.map((record) => record.outcome)).toEqual(['created', 'rotated']);
    expect((await diosc(dir, 'audit', 'export', '--since', '1h', '--assistant', 'ast_none0000')).stdout).toBe(
      '',
    );

    const missing = await diosc(dir, 'audit', 'export');
    expect([missing.code, missing.stderr]).toEqual([1, 'diosc: --since is required.\n']);
    const bad = await diosc(dir, 'audit', 'export', '--since', 'last week');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--since must be an ISO date');
    expect((await diosc(dir, 'audit', 'export', '--since', '1h', '--assistant', 'x')).code).toBe(1);
    expect((await diosc(dir, 'audit', 'import', '--since', '1h')).code).toBe(1);
    expect((await diosc(dir, 'audit', 'export', '--since', '1h', '--format', 'csv')).code).toBe(2);
    expect((await diosc(dir, '--help')).stdout).toContain('diosc audit export --since');
  });
});
