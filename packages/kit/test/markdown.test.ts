// @vitest-environment happy-dom
import { render } from 'lit';
import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../src/widget/markdown.js';

function html(markdown: string): HTMLElement {
  const host = document.createElement('div');
  render(renderMarkdown(markdown), host);
  return host;
}

describe('markdown from the model is rendered safely', () => {
  it('renders the common blocks and inline marks', () => {
    const host = html('# Title\n\nSome **bold** and *em* and `code`.\n\n- one\n- two\n\n```\n<b>x</b>\n```');
    expect(host.querySelector('[role="heading"]')?.textContent).toBe('Title');
    expect(host.querySelector('strong')?.textContent).toBe('bold');
    expect(host.querySelector('em')?.textContent).toBe('em');
    expect([...host.querySelectorAll('li')].map((li) => li.textContent)).toEqual(['one', 'two']);
    expect(host.querySelector('pre code')?.textContent).toBe('<b>x</b>');
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
