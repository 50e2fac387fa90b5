// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { READ_PAGE_MAX_CHARS, readPage, visibleText } from '../src/tools/read-page.js';

afterEach(() => {
  document.body.innerHTML = '';
});

describe('read_page', () => {
  it('reads visible text only: no script, style, img, svg, iframe, hidden, aria-hidden, password or widget', () => {
    document.title = 'Shop';
    document.body.innerHTML = `<h1>Teas</h1><p>Assam <b>3 €</b></p>
      <script>SCRIPT</script><style>.x{}</style><img alt="IMG-ALT"><svg><text>SVG</text></svg><iframe srcdoc="IFRAME"></iframe>
      <div hidden>HIDDEN</div><p style="display:none">NONE</p><span style="visibility:hidden">INVISIBLE</span>
      <span aria-hidden="true">ARIA</span><input type="password" value="PASSWORD"><input type="search" value="green">
      <diosc-widget>WIDGET</diosc-widget><div data-diosc-ignore>IGNORED</div><ul><li>One</li><li>Two</li></ul>`;
    const result = readPage({}) as Record<string, string>;
    expect(result).toEqual({
      url: location.href,
      path: location.pathname + location.search,
      title: 'Shop',
      content: 'Teas\nAssam 3 €\ngreen\nOne\nTwo',
    });
  });

  it('stops at 5,000 characters', () => {
    document.body.innerHTML = Array.from({ length: 2_000 }, (_, i) => `<p>paragraph ${i}</p>`).join('');
    const text = visibleText(document.body);
    expect(text).toHaveLength(READ_PAGE_MAX_CHARS);
    expect(text.startsWith('paragraph 0\nparagraph 1\n')).toBe(true);
  });

  it('with a selector: the trimmed text and the HTML of that element, password values removed', () => {
    document.body.innerHTML = '<form id="f">  Sign in <input type="password" value="hunter2"> </form>';
    expect(readPage({ selector: '#f' })).toEqual({
      content: 'Sign in',
      html: '<form id="f">  Sign in <input type="password"> </form>',
    });
    expect(readPage({ selector: '#missing' })).toEqual({ error: 'No element matches "#missing"' });
    expect(readPage({ selector: '[[' })).toEqual({ error: '"[[" is not a valid CSS selector' });
    expect(readPage({ selector: 4 })).toEqual({ error: 'selector must be a non-empty CSS selector string' });
  });
});
