import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { assistantAdminValidators } from '../src/assistant-admin/validators.js';
import { inputValidators, isFunctionName, outputValidators } from '../src/catalog/validators.js';
import { hubBodyValidators } from '../src/hub-api/validators.js';
import { lazyValidators } from '../src/schema/lazy-validators.js';

describe('validators compiled on first use', () => {
  // What compiling them all as the modules loaded used to prove: every schema compiles in strict mode.
  it('compiles every catalog, hub and assistant-admin schema', () => {
    for (const validators of [inputValidators, outputValidators, hubBodyValidators, assistantAdminValidators])
      expect(() => validators.compileAll()).not.toThrow();
  });

  it('compiles a schema once, on its first use, and no other', () => {
    const compiled: object[] = [];
    const ajv = new Ajv();
    const compile = ajv.compile.bind(ajv);
    ajv.compile = ((schema: object) => {
      compiled.push(schema);
      return compile(schema);
    }) as typeof ajv.compile;
    const a = { type: 'string' };
    const b = { type: 'number' };
    const validators = lazyValidators(ajv, { a, b });
    expect(compiled).toEqual([]);
    expect(validators.get('a')('text')).toBe(true);
    expect(validators.get('a')(1)).toBe(false);
    expect(compiled).toEqual([a]);
  });

  it('still refuses a name outside the catalog without compiling anything for it', () => {
    expect(isFunctionName('items_list')).toBe(true);
    expect(isFunctionName('no_such_tool')).toBe(false);
  });
});
