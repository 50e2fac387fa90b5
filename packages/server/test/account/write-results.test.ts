import { DIALECTS } from '@diosc/server/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAccounts } from '../../src/account/accounts.js';
import { type CoreFixture, itemRow, openCore } from './helpers.js';

/** What a write leaves and answers beyond its content: the content type, and whether it created. */
describe.each(DIALECTS)('write results ($name)', (dialect) => {
  let f: CoreFixture;
  beforeEach(async () => {
    f = await openCore(dialect);
  });
  afterEach(() => f.close());

  it('a new item without a content type is plain text; a replace without one keeps the stored type', async () => {
    const created = await f.core.execute(
      'item_write',
      {
        collection: 'notes',
        item: 'plain',
        requestId: 'req-type-1',
        ifNoneMatch: '*',
        content: { body: 'a' },
      },
      f.owner,
    );
    expect(created.result.created).toBe(true);
    expect((await itemRow(f.store, f.accountId, 'notes', 'plain'))?.content_type).toBe('text/plain');

    await f.core.execute(
      'item_write',
      {
        collection: 'notes',
        item: 'marked',
        requestId: 'req-type-2',
        ifNoneMatch: '*',
        content: { body: '# a', contentType: 'text/markdown' },
      },
      f.owner,
    );
    const replaced = await f.core.execute(
      'item_write',
      {
        collection: 'notes',
        item: 'marked',
        requestId: 'req-type-3',
        ifMatch: '1',
        content: { body: '# b' },
      },
      f.owner,
    );
    expect(replaced.result.created).toBe(false);
    expect(await itemRow(f.store, f.accountId, 'notes', 'marked')).toMatchObject({
      content_type: 'text/markdown',
      content: '# b',
      version: 2,
    });
  });

  it('an inbox edit answers created: false', async () => {
    const { result } = await f.core.execute(
      'item_write',
      { collection: 'inbox', item: 'welcome', requestId: 'req-type-4', metadata: { read: true } },
      f.owner,
    );
    expect(result.created).toBe(false);
  });
});

describe.each(DIALECTS)('accounts ($name)', (dialect) => {
  let f: CoreFixture;
  beforeEach(async () => {
    f = await openCore(dialect);
  });
  afterEach(() => f.close());

  it('setPasswordHash replaces that account’s hash only', async () => {
    const accounts = createAccounts(f.store.db);
    const other = await accounts.create(
      { email: 'Other@Example.test', displayName: 'Other', passwordHash: 'h-0' },
      1,
    );
    const before = await accounts.findById(f.accountId);
    await accounts.setPasswordHash(other, 'h-1');
    expect(await accounts.findById(other)).toMatchObject({
      email: 'other@example.test',
      password_hash: 'h-1',
    });
    expect(await accounts.findById(f.accountId)).toEqual(before);
  });
});
