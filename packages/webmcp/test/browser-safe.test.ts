import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '../src');

describe('@diosc/webmcp runs in browsers', () => {
  it('imports no node: module and no server package anywhere in src', () => {
    const files = readdirSync(SRC).filter((name) => name.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(5);
    for (const name of files) {
      const text = readFileSync(join(SRC, name), 'utf8');
      const specifiers = [...text.matchAll(/from\s+'([^']+)'/g)].map((m) => m[1]!);
      for (const specifier of specifiers) {
        expect(specifier, `${name} imports ${specifier}`).toMatch(/^(\.\/|@diosc\/protocol$)/);
      }
    }
  });

  it('sets no timers: whatever it does follows from an event, so a test can wait for that event', () => {
    for (const name of readdirSync(SRC)) {
      const text = readFileSync(join(SRC, name), 'utf8');
      expect(text, name).not.toMatch(
        /\b(setTimeout|setInterval|requestAnimationFrame|requestIdleCallback)\s*\(/,
      );
    }
  });

  it('never mentions exposedTo or a global polyfill install', () => {
    for (const name of readdirSync(SRC)) {
      const text = readFileSync(join(SRC, name), 'utf8');
      expect(text).not.toMatch(/exposedTo\s*:/);
      expect(text).not.toMatch(/(navigator|document|Document\.prototype)\.modelContext\s*=/);
    }
  });
});
