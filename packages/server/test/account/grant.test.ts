import { describe, expect, it } from 'vitest';
import {
  type Grant,
  grantAllows,
  grantedFunctions,
  grantNamesAnyCollection,
} from '../../src/account/caller-context.js';

/**
 * A connection's grant is exact: the collections it names, the functions listed for each, nothing
 * else — not a collection named like an Object.prototype member, not a function of another collection.
 */
const exact = (collections: Record<string, string[]>): Grant => ({ kind: 'exact', collections }) as Grant;
const ALL: Grant = { kind: 'all' };

describe('grantAllows', () => {
  it('allows exactly the listed functions of the named collections', () => {
    const grant = exact({ notes: ['items_list', 'item_read'], drive: ['items_list'] });
    expect(grantAllows(grant, 'notes', 'item_read')).toBe(true);
    expect(grantAllows(grant, 'drive', 'items_list')).toBe(true);
    expect(grantAllows(grant, 'drive', 'item_read')).toBe(false);
    expect(grantAllows(grant, 'notes', 'item_write')).toBe(false);
    expect(grantAllows(grant, 'inbox', 'items_list')).toBe(false);
  });

  it('names no collection through the prototype: constructor, toString, __proto__ are refused', () => {
    const grant = exact({ notes: ['items_list'] });
    for (const id of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      expect(grantAllows(grant, id, 'items_list')).toBe(false);
      expect(grantedFunctions(grant, id)).toEqual([]);
    }
  });

  it('the owner’s own grant allows everything', () => {
    expect(grantAllows(ALL, 'anything', 'item_delete')).toBe(true);
    expect(grantedFunctions(ALL, 'anything')).toBe('all');
  });
});

describe('grantedFunctions', () => {
  it('lists a named collection’s functions, and none for any other', () => {
    const grant = exact({ notes: ['items_list', 'item_write'] });
    expect(grantedFunctions(grant, 'notes')).toEqual(['items_list', 'item_write']);
    expect(grantedFunctions(grant, 'drive')).toEqual([]);
  });
});

describe('a malformed grant entry (no function list)', () => {
  it('lists no functions and allows none', () => {
    const grant = { kind: 'exact', collections: { notes: undefined } } as unknown as Grant;
    expect(grantedFunctions(grant, 'notes')).toEqual([]);
    expect(grantAllows(grant, 'notes', 'items_list')).toBe(false);
  });
});

describe('grantNamesAnyCollection', () => {
  it('is true for the owner and for a grant with at least one function somewhere', () => {
    expect(grantNamesAnyCollection(ALL)).toBe(true);
    expect(grantNamesAnyCollection(exact({ notes: [], drive: ['items_list'] }))).toBe(true);
  });

  it('is false for a grant naming nothing, or only collections without functions', () => {
    expect(grantNamesAnyCollection(exact({}))).toBe(false);
    expect(grantNamesAnyCollection(exact({ notes: [], drive: [] }))).toBe(false);
  });
});
