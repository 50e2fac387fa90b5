import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogDescriptors, descriptorsFor, findDescriptor } from '../src/catalog/descriptors.js';
import { collectionOf, requestIdOf } from '../src/catalog/identifiers.js';
import { isMutatingCall, isMutatingFunction, MUTATING_FUNCTIONS } from '../src/catalog/mutations.js';
import { findOperation, OPERATIONS } from '../src/catalog/operations.js';
import { FUNCTION_NAMES, ID_PATTERN, REQUEST_ID_PATTERN } from '../src/catalog/schemas.js';
import type { MutatingFunction } from '../src/catalog/types.js';
import { isFunctionName, isValidOutput, validateCall, validateInput } from '../src/catalog/validators.js';

const COMBINATORS = ['oneOf', 'anyOf', 'allOf', 'not', 'if', 'then', 'else', '$ref', 'dependentSchemas'];

function isDeepFrozen(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return true;
  return Object.isFrozen(value) && Object.values(value).every(isDeepFrozen);
}

describe('catalog', () => {
  it('holds exactly the five account operations, in order, and no generic dispatch tool', () => {
    expect(OPERATIONS.map((o) => o.name)).toEqual([...FUNCTION_NAMES]);
    expect(FUNCTION_NAMES).toEqual([
      'collections_list',
      'items_list',
      'item_read',
      'item_write',
      'item_delete',
    ]);
    for (const name of FUNCTION_NAMES) expect(findOperation(name)?.name).toBe(name);
    expect(findOperation('resource_dispatch')).toBeUndefined();
  });

  it('produces descriptors from OPERATIONS that are plain JSON and deeply frozen', () => {
    const descriptors = catalogDescriptors();
    expect(descriptors).toBe(catalogDescriptors());
    expect(isDeepFrozen(descriptors)).toBe(true);
    expect(JSON.parse(JSON.stringify(descriptors))).toEqual(descriptors);
    expect(descriptors.map((d) => d.name)).toEqual(OPERATIONS.map((o) => o.name));
    for (const [i, descriptor] of descriptors.entries()) {
      const operation = OPERATIONS[i]!;
      expect(descriptor.description).toBe(operation.description);
      expect(descriptor.inputSchema).toEqual(operation.inputSchema);
      expect(descriptor.outputSchema).toEqual(operation.outputSchema);
      expect(descriptor.hints).toEqual(operation.hints);
      expect(descriptor.annotations).toEqual({
        title: operation.title,
        readOnlyHint: operation.hints.readOnly,
        destructiveHint: operation.hints.destructive,
        idempotentHint: operation.hints.idempotent,
        openWorldHint: false,
      });
      // A descriptor is the contract only: no URL, credential or account data.
      expect(JSON.stringify(descriptor)).not.toMatch(/https?:\/\/|token|secret|password|cookie|csrf/i);
    }
    expect(() => {
      (descriptors[0] as { name: string }).name = 'changed';
    }).toThrow(TypeError);
  });

  it('gives every input schema an object type at the top and no top-level combinators', () => {
    for (const { name, inputSchema } of catalogDescriptors()) {
      expect(inputSchema.type, name).toBe('object');
      expect(inputSchema.additionalProperties, name).toBe(false);
      for (const keyword of COMBINATORS)
        expect(Object.hasOwn(inputSchema, keyword), `${name}.${keyword}`).toBe(false);
      expect(typeof inputSchema.properties).toBe('object');
    }
  });

  it('hints: reads are read-only and untrusted; writes and deletes are consequential and idempotent by request ID', () => {
    const hints = Object.fromEntries(catalogDescriptors().map((d) => [d.name, d.hints]));
    for (const name of ['collections_list', 'items_list', 'item_read']) {
      expect(hints[name]).toMatchObject({
        readOnly: true,
        consequential: false,
        destructive: false,
        untrustedContent: true,
      });
    }
    for (const name of ['item_write', 'item_delete']) {
      expect(hints[name]).toMatchObject({
        readOnly: false,
        consequential: true,
        destructive: true,
        idempotent: true,
      });
      expect(findDescriptor(name)?.inputSchema.required).toContain('requestId');
    }
  });

  it('states the mutating functions once: those whose hints are not read-only', () => {
    expect(MUTATING_FUNCTIONS).toEqual(['item_write', 'item_delete']);
    expect(MUTATING_FUNCTIONS).toEqual(OPERATIONS.filter((o) => !o.hints.readOnly).map((o) => o.name));
    expect(Object.isFrozen(MUTATING_FUNCTIONS)).toBe(true);
    // The type names the same set: every member of it is in the list, and the list holds nothing else.
    const everyType: Record<MutatingFunction, true> = { item_write: true, item_delete: true };
    expect(Object.keys(everyType).sort()).toEqual([...MUTATING_FUNCTIONS].sort());
    for (const name of FUNCTION_NAMES) {
      expect(isMutatingFunction(name), name).toBe(!findOperation(name)!.hints.readOnly);
    }
    expect(isMutatingFunction('toString')).toBe(false);
    const write = {
      collection: 'n',
      item: 'i',
      requestId: 'req-00000001',
      ifNoneMatch: '*',
      content: { body: '' },
    };
    expect(isMutatingCall(validateCall('item_write', write))).toBe(true);
    expect(isMutatingCall(validateCall('items_list', { collection: 'n' }))).toBe(false);
    expect(validateCall('item_write', write)).toEqual({ name: 'item_write', input: write });
  });

  it('takes identifiers from an input only when well-formed: never free text', () => {
    expect(requestIdOf({ requestId: 'req-00000001' })).toBe('req-00000001');
    expect(collectionOf({ collection: 'notes' })).toBe('notes');
    for (const input of [
      { requestId: 'short', collection: 'has space' },
      { requestId: 'req-00000001 <b>x</b>', collection: '-leading' },
      { requestId: 42, collection: ['notes'] },
      ['req-00000001'],
      'notes',
      null,
      undefined,
    ]) {
      expect(requestIdOf(input)).toBeUndefined();
      expect(collectionOf(input)).toBeUndefined();
    }
  });

  it('selects descriptors by name in catalog order and knows no others', () => {
    expect(descriptorsFor(['item_delete', 'items_list', 'nope']).map((d) => d.name)).toEqual([
      'items_list',
      'item_delete',
    ]);
    expect(findDescriptor('item_read')?.name).toBe('item_read');
    expect(findDescriptor('toString')).toBeUndefined();
    expect(isFunctionName('item_read')).toBe(true);
    expect(isFunctionName('constructor')).toBe(false);
  });

  it('validates inputs without changing them, and refuses with typed errors', () => {
    const input = {
      collection: 'notes',
      item: 'a',
      requestId: 'req-12345',
      ifNoneMatch: '*',
      content: { body: 'x' },
    };
    const copy = structuredClone(input);
    expect(validateInput('item_write', input)).toBe(input);
    expect(input).toEqual(copy);
    expect(() => validateInput('items_list', {})).toThrow(expect.objectContaining({ code: 'invalid_input' }));
    expect(() => validateInput('drop_tables', {})).toThrow(expect.objectContaining({ code: 'unknown_tool' }));
    expect(() => validateInput('item_write', { ...input, metadata: { read: true } })).toThrow(
      expect.objectContaining({ code: 'invalid_input' }),
    );
  });

  it('checks outputs against the output schemas', () => {
    const item = { id: 'a', title: 'A', version: '1', updatedAt: '2026-11-29T12:00:00.000Z', sizeBytes: 1 };
    expect(isValidOutput('item_write', { collection: 'notes', item, created: true })).toBe(true);
    expect(isValidOutput('item_write', { collection: 'notes', item, created: true, extra: 1 })).toBe(false);
    expect(isValidOutput('items_list', { collection: 'notes', items: [item], nextCursor: null })).toBe(true);
    expect(isValidOutput('item_read', { collection: 'notes', item })).toBe(false);
  });
});

describe('one catalog in the repository', () => {
  const root = new URL('../../../', import.meta.url).pathname;
  function sourceFiles(dir: string): string[] {
    let entries: string[];
    try {
      entries = readdirSync(dir);
    } catch {
      return [];
    }
    return entries.flatMap((entry) => {
      const path = join(dir, entry);
      if (entry === 'node_modules' || entry === 'dist') return [];
      if (statSync(path).isDirectory()) return sourceFiles(path);
      return /\.(ts|js|mjs|json)$/.test(entry) ? [path] : [];
    });
  }

  it('no other package restates an operation description or the ID patterns', () => {
    const packages = readdirSync(join(root, 'packages')).filter((name) => name !== 'protocol');
    const files = packages.flatMap((name) => sourceFiles(join(root, 'packages', name, 'src')));
    const needles = [...OPERATIONS.map((o) => o.description), ID_PATTERN, REQUEST_ID_PATTERN];
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const needle of needles)
        expect(text.includes(needle), `${file} restates "${needle.slice(0, 40)}…"`).toBe(false);
    }
  });
});
