import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { errorCodes } from '@diosc/protocol';
import { describe, expect, it } from 'vitest';
import en from '../src/i18n/locales/en.json';
import es from '../src/i18n/locales/es.json';

type Catalogue = { [key: string]: string | Catalogue };

function flatten(catalogue: Catalogue, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(catalogue)) {
    if (typeof value === 'string') out.set(`${prefix}${key}`, value);
    else for (const [inner, text] of flatten(value, `${prefix}${key}.`)) out.set(inner, text);
  }
  return out;
}

const EN = flatten(en as Catalogue);
const ES = flatten(es as Catalogue);
const SRC = fileURLToPath(new URL('../src', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('English and Spanish catalogues', () => {
  it('have exactly the same keys', () => {
    expect([...ES.keys()].sort()).toEqual([...EN.keys()].sort());
  });

  it('have no empty value', () => {
    for (const [name, catalogue] of [
      ['en', EN],
      ['es', ES],
    ] as const) {
      const empty = [...catalogue].filter(([, text]) => text.trim() === '').map(([key]) => `${name}:${key}`);
      expect(empty).toEqual([]);
    }
  });

  it('use the same interpolation placeholders in both languages', () => {
    const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
    const differing = [...EN].filter(([key, text]) => {
      return JSON.stringify(placeholders(text)) !== JSON.stringify(placeholders(ES.get(key) ?? ''));
    });
    expect(differing.map(([key]) => key)).toEqual([]);
  });

  it('explain every error code of the protocol', () => {
    const missing = errorCodes.filter((code) => !EN.has(`errors.${code}`) || !ES.has(`errors.${code}`));
    expect(missing).toEqual([]);
  });

  it('give every error code a short name for the activity log, so no outcome shows as a raw code', () => {
    const key = (code: string) => `automation.activity.codes.${code}`;
    expect(errorCodes.filter((code) => !EN.has(key(code)) || !ES.has(key(code)))).toEqual([]);
    // And nothing else: a name for a code that no longer exists is a leftover.
    const named = [...EN.keys()].filter((name) => name.startsWith('automation.activity.codes.'));
    expect(named.map((name) => name.slice('automation.activity.codes.'.length)).sort()).toEqual(
      [...errorCodes].sort(),
    );
  });

  it('contain every literal key the source asks for', () => {
    const used = new Set<string>();
    for (const file of sources(SRC)) {
      for (const match of readFileSync(file, 'utf8').matchAll(/\bt\(\s*'([A-Za-z0-9_.-]+)'/g))
        used.add(match[1]!);
    }
    expect(used.size).toBeGreaterThan(100);
    const has = (key: string) => EN.has(key) || EN.has(`${key}_one`);
    expect([...used].filter((key) => !has(key))).toEqual([]);
  });
});
