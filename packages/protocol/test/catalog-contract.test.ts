import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { catalogDescriptors } from '../src/catalog/descriptors.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');

// What every model and client sees of the catalog — names, descriptions, schemas, hints — is a
// reviewed contract: docs/api/catalog.json. A change to any word of it fails here until the new
// catalog is looked at and taken in with `npm run docs:refresh` (this test writes it first).
describe('the published catalog', () => {
  it('is exactly docs/api/catalog.json', () => {
    const served = `${JSON.stringify(catalogDescriptors(), null, 2)}\n`;
    const fresh = join(root, 'test-results', 'catalog.json');
    mkdirSync(dirname(fresh), { recursive: true });
    writeFileSync(fresh, served);
    expect(served).toBe(readFileSync(join(root, 'docs', 'api', 'catalog.json'), 'utf8'));
  });
});
