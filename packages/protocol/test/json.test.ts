import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../src/json/canonical-json.js';
import { deepFreeze } from '../src/json/deep-freeze.js';
import { isPlainObject } from '../src/json/plain-object.js';

describe('JSON helpers every package shares', () => {
  it('canonicalJson sorts keys at every depth and keeps arrays in order', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: 3 }, 'x'], c: { z: null, y: true } })).toBe(
      '{"a":[{"c":3,"d":2},"x"],"b":1,"c":{"y":true,"z":null}}',
    );
    expect(canonicalJson({ b: 1, a: 2 })).toBe(canonicalJson({ a: 2, b: 1 }));
    expect(canonicalJson('text')).toBe('"text"');
    expect(canonicalJson({ at: new Date(0) })).toBe('{"at":"1970-01-01T00:00:00.000Z"}');
  });

  it('canonicalJson keeps a key named __proto__ as data, so it cannot vanish from a digest', () => {
    const input = JSON.parse('{"__proto__":{"x":1},"a":1}') as unknown;
    expect(canonicalJson(input)).toBe('{"__proto__":{"x":1},"a":1}');
    expect(canonicalJson(input)).not.toBe(canonicalJson({ a: 1 }));
  });

  it('deepFreeze freezes everything reachable, in place', () => {
    const value = { a: { b: [{ c: 1 }] } };
    expect(deepFreeze(value)).toBe(value);
    expect(Object.isFrozen(value.a.b[0])).toBe(true);
    expect(() => {
      (value.a.b as unknown[]).push(2);
    }).toThrow(TypeError);
  });

  it('isPlainObject accepts JSON objects only', () => {
    expect(isPlainObject({})).toBe(true);
    expect(isPlainObject(Object.create(null))).toBe(true);
    for (const value of [[], null, 'x', 1, new Date(), new Map()]) expect(isPlainObject(value)).toBe(false);
  });
});
