// @vitest-environment happy-dom
import { render } from 'lit';
import { describe, expect, it } from 'vitest';
import { markdownParser } from '../src/widget/markdown/markdown-parser.js';
import { parseBlocks } from '../src/widget/markdown/parse-blocks.js';
import { parseInline } from '../src/widget/markdown/parse-inline.js';
import { renderMarkdown } from '../src/widget/markdown/render-markdown.js';

function html(markdown: string, outsideLinks = false): HTMLElement {
  const host = document.createElement('div');
  render(renderMarkdown(markdown, markdownParser, { outsideLinks }), host);
  return host;
}

describe('markdown from the model is rendered safely', () => {
  it('renders the common blocks and inline marks', () => {
    const host = html('# Title\n\nSome **bold** and *em* and `code`.\n\n- one\n- two\n\n```\n<b>x</b>\n```');
    expect(host.querySelector('[role="heading"]')?.textContent).toBe('Title');
    expect(host.querySelector('strong')?.textContent).toBe('bold');
    expect(host.querySelector('em')?.textContent).toBe('em');
    expect([...host.querySelectorAll('li')].map((li) => li.textContent)).toEqual(['one', 'two']);
    expect(host.querySelector('pre code')?.textContent).toBe('<b>x</b>\n');
  });

  it('never turns model text into HTML', () => {
    const host = html(
      '<img src=x onerror=alert(1)> <script>alert(2)</script> <a href="javascript:alert(3)">x</a>',
    );
    expect(host.querySelector('img, script, a')).toBeNull();
    expect(host.textContent).toContain('<img src=x onerror=alert(1)>');
  });

  it('links only http(s) and mailto, never javascript: or data:', () => {
    const host = html(
      '[ok](https://example.com/a) [mail](mailto:a@b.c) [bad](javascript:alert(1)) [data](data:text/html,hi) https://bare.example/x.',
      true,
    );
    const links = [...host.querySelectorAll('a')].map((a) => [
      a.textContent,
      a.getAttribute('href'),
      a.getAttribute('rel'),
    ]);
    expect(links).toEqual([
      ['ok', 'https://example.com/a', 'noopener noreferrer nofollow'],
      ['mail', 'mailto:a@b.c', 'noopener noreferrer nofollow'],
      ['https://bare.example/x', 'https://bare.example/x', 'noopener noreferrer nofollow'],
    ]);
    expect(host.textContent).toContain('bad');
  });
});

describe('text as the model wrote it (issue 30, item 9)', () => {
  it('keeps the underscores of snake_case names, keys and ids', () => {
    const host = html(
      'Set ANTHROPIC_API_KEY first.\n\nI can call read_page, highlight_row and open_item.\n\n{"id":"row_42","owner_id":"user_7"}',
    );
    expect(host.querySelector('em, strong')).toBeNull();
    expect(host.textContent).toContain('ANTHROPIC_API_KEY');
    expect(host.textContent).toContain('read_page, highlight_row and open_item');
    expect(host.textContent).toContain('{"id":"row_42","owner_id":"user_7"}');
  });

  it('still draws emphasis that is written as emphasis', () => {
    const host = html('_Note:_ a **bold** and *em* and __strong__ mark.');
    expect([...host.querySelectorAll('em, strong')].map((each) => each.textContent)).toEqual([
      'Note:',
      'bold',
      'em',
      'strong',
    ]);
  });

  it('ends a bare URL where the sentence or the JSON around it goes on', () => {
    const host = html(
      '{"url": https://docs.example/start","path":"/a"} See https://a.example/x_y. (https://b.example/(c)) https://c.example/q?a=1,',
      true,
    );
    expect([...host.querySelectorAll('a')].map((a) => a.getAttribute('href'))).toEqual([
      'https://docs.example/start',
      'https://a.example/x_y',
      'https://b.example/(c)',
      'https://c.example/q?a=1',
    ]);
    expect(host.textContent).toContain('start","path":"/a"}');
  });

  it('renders a quote indented by a space (the old renderer looped forever on it)', () => {
    expect(html('  > quoted').querySelector('blockquote')?.textContent).toBe('quoted');
  });

  it('parses hostile text to its end (floods of delimiters, brackets and 2,000-deep nesting) and draws nesting only so deep', () => {
    const hostile = [
      '*a _b '.repeat(20_000),
      '` `` '.repeat(20_000),
      '['.repeat(20_000) + '](x)'.repeat(2_000),
      `${'*'.repeat(50_000)}a${'*'.repeat(50_000)}`,
      `${'- > '.repeat(2_000)}deep`,
    ];
    for (const text of hostile)
      for (const block of parseBlocks(text.split('\n'))) if ('text' in block) parseInline(block.text);
    // Drawn, the deepest of them stops nesting elements and shows the rest as text.
    const stars = html(`${'*'.repeat(10_000)}a${'*'.repeat(10_000)}`);
    expect(stars.querySelectorAll('em, strong').length).toBeLessThanOrEqual(40);
    expect(html(`${'- > '.repeat(2_000)}deep`).textContent).toContain('deep');
  });
});

describe('links that leave the page (issue 30, item 10)', () => {
  it('shows a link off the page’s origin as its full destination, not one click away', () => {
    const host = html(
      "I can't take you to [the login](https://evil.example/login). Try https://evil.example/x.",
    );
    expect(host.querySelector('a')).toBeNull();
    expect(host.textContent).toBe(
      "I can't take you to the login (https://evil.example/login). Try https://evil.example/x.",
    );
  });

  it('keeps links on the page’s own origin, and mail, one click away', () => {
    const host = html(`[Orders](/orders) [here](${location.origin}/cart) [mail](mailto:help@shop.example)`);
    expect([...host.querySelectorAll('a')].map((a) => a.getAttribute('href'))).toEqual([
      `${location.origin}/orders`,
      `${location.origin}/cart`,
      'mailto:help@shop.example',
    ]);
  });

  it('links outside only when the assistant’s settings allow it', () => {
    expect(html('[docs](https://docs.example/a)', true).querySelector('a')?.getAttribute('href')).toBe(
      'https://docs.example/a',
    );
  });
});
