import { describe, expect, it } from 'vitest';
import { duplicateKeyOf } from '../../src/http/duplicate-key.js';

describe('duplicateKeyOf', () => {
  it('finds a name given twice in one object, decoded, at any depth', () => {
    expect(duplicateKeyOf('{"a":1,"a":2}')).toBe('a');
    expect(duplicateKeyOf('{"a":1,"\\u0061":2}')).toBe('a');
    expect(duplicateKeyOf('[1,{"x":[{"k":"v","k":"w"}]}]')).toBe('k');
    expect(duplicateKeyOf(`{"${'n'.repeat(500)}":1,"${'n'.repeat(500)}":2}`)).toBe('n'.repeat(64));
  });

  it('does not confuse values, other objects, strings full of syntax, or escaped quotes with names', () => {
    for (const text of [
      '{"a":"a","b":"a"}',
      '{"a":{"a":{"a":1}},"b":[{"a":1},{"a":2}]}',
      '{"a":"{\\"a\\":1,\\"a\\":2}","b":"\\\\"}',
      '{"a\\"":1,"a":2}',
      '["a","a",{"a":1}]',
      '{"a":[],"b":{},"c":[{},[]],"d":1}',
      '"a"',
      'null',
    ]) {
      expect(duplicateKeyOf(text), text).toBeUndefined();
    }
  });
});
