import { describe, expect, it } from 'vitest';
import { isValidOutput, validateInput } from '../src/catalog/validators.js';
import { DioscError } from '../src/errors/diosc-error.js';

const write = { collection: 'notes', item: 'n-1', requestId: 'request-0001' };

function refusal(name: string, input: unknown): { code: string; message: string } {
  try {
    validateInput(name, input);
  } catch (error) {
    if (!(error instanceof DioscError)) throw error;
    return { code: error.code, message: error.message };
  }
  throw new Error('the input was accepted');
}

// The message is what a model reads to correct its call: it names the field, the rule and the
// offending key, and a caller-supplied name is cut before it is echoed.
describe('what a refused input says', () => {
  it('names an unknown tool, cut to 128 characters', () => {
    expect(refusal('nope', {})).toEqual({ code: 'unknown_tool', message: 'There is no tool named "nope".' });
    const long = 'x'.repeat(300);
    expect(refusal(long, {}).message).toBe(`There is no tool named "${'x'.repeat(128)}".`);
  });

  it('names an unknown field at the top and the rule it broke', () => {
    expect(refusal('item_read', { collection: 'notes', item: 'n-1', evil: 1 })).toEqual({
      code: 'invalid_input',
      message: 'input must NOT have additional properties (evil).',
    });
  });

  it('names a nested field by its dotted path', () => {
    expect(refusal('item_write', { ...write, content: { body: 'b', title: 5 } })).toEqual({
      code: 'invalid_input',
      message: 'input.content.title must be string.',
    });
    expect(refusal('item_write', { ...write, content: { body: 'b', extra: true } }).message).toBe(
      'input.content must NOT have additional properties (extra).',
    );
  });

  it('refuses content with metadata, and neither', () => {
    const both = refusal('item_write', { ...write, content: { body: 'b' }, metadata: { read: true } });
    expect(both).toEqual({ code: 'invalid_input', message: 'Give exactly one of `content` or `metadata`.' });
    expect(refusal('item_write', write).message).toBe('Give exactly one of `content` or `metadata`.');
  });

  it('refuses ifMatch with ifNoneMatch', () => {
    expect(
      refusal('item_write', { ...write, content: { body: 'b' }, ifMatch: 'v1', ifNoneMatch: '*' }),
    ).toEqual({
      code: 'invalid_input',
      message: 'Give at most one of `ifMatch` or `ifNoneMatch`.',
    });
    expect(() =>
      validateInput('item_write', { ...write, content: { body: 'b' }, ifMatch: 'v1' }),
    ).not.toThrow();
    expect(() =>
      validateInput('item_write', { ...write, content: { body: 'b' }, ifNoneMatch: '*' }),
    ).not.toThrow();
  });
});

describe('isValidOutput', () => {
  it('is false for a name the catalog does not have, instead of throwing', () => {
    expect(isValidOutput('nope' as 'item_read', {})).toBe(false);
  });
});
