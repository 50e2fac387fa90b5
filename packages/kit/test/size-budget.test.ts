import { describe, expect, it } from 'vitest';
import { bundleKit, KIT_GZIP_BUDGET_BYTES, KIT_WIRE_BUDGET_BYTES } from '../scripts/bundle.js';

describe('the kit’s initial JavaScript', () => {
  it(`is within the budget: ≤ ${KIT_WIRE_BUDGET_BYTES} bytes on the wire (Brotli) and ≤ ${KIT_GZIP_BUDGET_BYTES} gzip for the widget, dialog, built-ins, adapter and transport`, async () => {
    const bundle = await bundleKit('iife');
    // Deterministic: the same source gives the same bytes.
    expect((await bundleKit('iife')).hash).toBe(bundle.hash);
    expect(bundle.gzipBytes).toBeGreaterThan(10_000);
    expect(bundle.gzipBytes).toBeLessThanOrEqual(KIT_GZIP_BUDGET_BYTES);
    expect(bundle.brotliBytes).toBeLessThanOrEqual(KIT_WIRE_BUDGET_BYTES);
    // What is in it: the real thing, built for production (no Lit dev mode, no fake hub, no Ajv).
    for (const part of [
      'diosc-widget',
      'diosc-consensus-dialog',
      'read_page',
      'navigate',
      'text/event-stream',
      'browser_',
    ])
      expect(bundle.code).toContain(part);
    for (const absent of ['lit.dev/msg', 'Fake assistant', 'ajv', 'node:'])
      expect(bundle.code).not.toContain(absent);
    // The markdown parser (its heading rule, say) is a part of its own, loaded by name and digest.
    const heading = '#{1,6}';
    expect(bundle.markdown.code).toContain(heading);
    expect(bundle.code).not.toContain(heading);
    expect(bundle.code).toContain(`diosc-kit-markdown.${bundle.markdown.hash}.js`);
    expect(bundle.code).toContain(bundle.markdown.integrity);
  }, 60_000);
});
