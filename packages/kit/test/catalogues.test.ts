import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import en from '../src/i18n/locales/en.json';
import es from '../src/i18n/locales/es.json';
import { createTranslator } from '../src/i18n/translator.js';

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
const sources = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });

describe('the kit’s English and Spanish catalogues', () => {
  it('have exactly the same keys, none empty, the same placeholders', () => {
    expect([...ES.keys()].sort()).toEqual([...EN.keys()].sort());
    expect([...EN, ...ES].filter(([, text]) => text.trim() === '')).toEqual([]);
    const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
    expect(
      [...EN].filter(
        ([key, text]) => JSON.stringify(placeholders(text)) !== JSON.stringify(placeholders(ES.get(key)!)),
      ),
    ).toEqual([]);
  });

  it('contain every literal key the source asks for', () => {
    const used = new Set<string>();
    for (const file of sources(SRC))
      for (const match of readFileSync(file, 'utf8').matchAll(/\bt\(\s*'([A-Za-z0-9_.-]+)'/g))
        used.add(match[1]!);
    expect(used.size).toBeGreaterThan(40);
    expect([...used].filter((key) => !EN.has(key) && !EN.has(`${key}_one`))).toEqual([]);
  });

  it('translate with plurals and placeholders, and report a missing key instead of falling back', () => {
    const es = createTranslator('es');
    expect(es.t('approvals.waiting', { count: 1 })).toBe('Una acción espera tu decisión.');
    expect(es.t('approvals.waiting', { count: 3 })).toBe('3 acciones esperan tu decisión.');
    expect(createTranslator('en').t('tool.done', { tool: 'navigate' })).toBe('navigate — done');
    expect(es.t('no.such.key')).toBe('no.such.key');
  });
});
