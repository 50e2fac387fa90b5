import { describe, expect, it } from 'vitest';
import { compactCss } from '../scripts/bundle.js';

describe('compactCss (the build step that keeps readable styles free)', () => {
  it('drops indentation, spaces around punctuation, a last semicolon and the zero before a decimal point', () => {
    const source =
      'const s = css`\n  :host { gap: 0.75rem; opacity: 0.5; margin: 10.5px 0.2em; }\n  a, b > c { color: rgb(0 0 0 / 0.4); }\n`;';
    expect(compactCss(source)).toBe(
      'const s = css`:host{gap:.75rem;opacity:.5;margin:10.5px .2em}a,b>c{color:rgb(0 0 0 / .4)}`;',
    );
  });

  it('leaves a template with substitutions and text outside css templates as written', () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text of a template with a substitution
    const source = 'css`a { b: ${x}; }` + "0.5 { x }"';
    expect(compactCss(source)).toBe(source);
  });
});
