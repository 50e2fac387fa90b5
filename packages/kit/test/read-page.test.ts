// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import {
  pageText,
  READ_PAGE_COUNT_NODES,
  READ_PAGE_MAX_CHARS,
  readPage,
  visibleText,
} from '../src/tools/read-page.js';

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

  it('gives the main content the budget first, then the rest of the page in document order', () => {
    const links = Array.from(
      { length: 300 },
      (_, i) => `<li><a href="/d/${i}">Sidebar link ${i}</a></li>`,
    ).join('');
    const body = Array.from(
      { length: 40 },
      (_, i) => `<p>The article's paragraph ${i} says something.</p>`,
    ).join('');
    document.body.innerHTML = `<nav><ul>${links}</ul></nav><main><h1>Install</h1>${body}</main><footer>Footer text</footer>`;
    const answer = pageText(document.body, 2_000);
    expect(answer.content.startsWith("Install\nThe article's paragraph 0 says something.")).toBe(true);
    expect(answer.content).toContain("The article's paragraph 39 says something.\n\nSidebar link 0");
    expect(answer.content).not.toContain('Footer text');
    // Without <main>, the largest article is the main content.
    document.body.innerHTML = `<aside>${links}</aside><article>Short</article><article><p>Long story</p>${body}</article>`;
    expect(pageText(document.body, 2_000).content.startsWith('Long story\n')).toBe(true);
  });

  it('says when it cut, and cuts at a word boundary', () => {
    document.body.innerHTML = `<main>${Array.from({ length: 400 }, (_, i) => `<p>sentence number ${i} of the page</p>`).join('')}</main>`;
    const answer = pageText(document.body);
    expect(answer.truncated).toBe(true);
    expect(answer.content.length).toBeLessThanOrEqual(READ_PAGE_MAX_CHARS + 1);
    expect(answer.content.endsWith('…')).toBe(true);
    // The last word before the ellipsis is whole: it is a word of the page.
    const last = answer.content.slice(0, -1).split(/\s/).at(-1)!;
    expect(['sentence', 'number', 'of', 'the', 'page'].includes(last) || /^\d+$/.test(last)).toBe(true);
    expect(answer.content.slice(0, -1)).toBe(answer.content.slice(0, -1).trimEnd());
    // A page that fits says nothing of the kind.
    document.body.innerHTML = '<main><p>All of it.</p></main><footer>Bye</footer>';
    expect(pageText(document.body)).toEqual({ content: 'All of it.\n\nBye' });
    expect(readPage({})).toMatchObject({ content: 'All of it.\n\nBye' });
    expect(readPage({})).not.toHaveProperty('truncated');
  });

  it('says how much there was: the length of the whole text when the count gets to the end', () => {
    document.body.innerHTML = `<nav><a href="/">Home</a> <span hidden>HIDDEN</span></nav><main>${Array.from(
      { length: 60 },
      (_, i) => `<p>Paragraph ${i} of the story <b>with bold</b><script>SCRIPT</script></p>`,
    ).join('')}</main><footer>Footer</footer>`;
    const whole = pageText(document.body, Number.POSITIVE_INFINITY).content;
    expect(whole.endsWith('with bold\n\nHome\nFooter')).toBe(true);
    const answer = pageText(document.body, 500);
    expect(answer).toEqual({ content: expect.any(String), truncated: true, totalChars: whole.length });
    expect(answer.content.length).toBeLessThanOrEqual(501);
    // The same with no main content: one walk over the page.
    document.body.innerHTML = Array.from({ length: 60 }, (_, i) => `<p>Line ${i}<br>next</p>`).join('');
    const flat = pageText(document.body, Number.POSITIVE_INFINITY).content;
    expect(pageText(document.body, 300)).toMatchObject({ truncated: true, totalChars: flat.length });
  });

  it('says "at least" when the page is longer than the count may go, and never more than there is', () => {
    document.body.innerHTML = `<main>${Array.from({ length: 60 }, (_, i) => `<p>Paragraph ${i} of the story</p>`).join('')}</main><footer>Footer</footer>`;
    const whole = pageText(document.body, Number.POSITIVE_INFINITY).content.length;
    const mainOnly = whole - '\n\nFooter'.length;
    // Every budget of nodes to count past the cut, from none to more than the page has.
    const answers = Array.from({ length: 200 }, (_, nodes) => pageText(document.body, 100, nodes));
    // Once exact, always exact with more nodes; before that, a bound that only grows and never
    // passes the total.
    const exactFrom = answers.findIndex((answer) => answer.totalChars !== undefined);
    expect(exactFrom).toBeGreaterThan(0);
    let bound = 0;
    for (const [nodes, answer] of answers.entries()) {
      expect(answer.truncated).toBe(true);
      if (nodes >= exactFrom) {
        expect(answer.totalChars).toBe(whole);
        expect(answer).not.toHaveProperty('totalCharsAtLeast');
        continue;
      }
      expect(answer).not.toHaveProperty('totalChars');
      expect(answer.totalCharsAtLeast).toBeGreaterThan(100);
      expect(answer.totalCharsAtLeast).toBeGreaterThanOrEqual(bound);
      expect(answer.totalCharsAtLeast).toBeLessThanOrEqual(whole);
      bound = answer.totalCharsAtLeast!;
    }
    expect(answers[0]!.totalCharsAtLeast).toBeLessThan(200);
    expect(answers.at(-1)!.totalChars).toBe(whole);
    // On the way: the main content counted to its end, the footer after it not yet.
    expect(answers.some((answer) => answer.totalCharsAtLeast === mainOnly)).toBe(true);
    // The same page and budget, the same answer.
    expect(pageText(document.body, 100, 50)).toEqual(answers[50]);
  });

  it(`counts ${READ_PAGE_COUNT_NODES} nodes past the cut by default`, () => {
    document.body.innerHTML = Array.from({ length: 600 }, (_, i) => `<p>Paragraph ${i}</p>`).join('');
    const answer = pageText(document.body, 100);
    expect(answer).toEqual(pageText(document.body, 100, READ_PAGE_COUNT_NODES));
    expect(answer).not.toEqual(pageText(document.body, 100, READ_PAGE_COUNT_NODES - 1));
    expect(answer.totalCharsAtLeast).toBeLessThan(
      pageText(document.body, Number.POSITIVE_INFINITY).content.length,
    );
  });

  it('a main content of exactly the budget, then more: that is cut too, and counted', () => {
    document.body.innerHTML = `<main><p>${'x'.repeat(100)}</p></main><footer>Bye</footer>`;
    expect(pageText(document.body, 100)).toEqual({
      content: `${'x'.repeat(100)}…`,
      truncated: true,
      totalChars: 105,
    });
    expect(pageText(document.body, 105)).toEqual({ content: `${'x'.repeat(100)}\n\nBye` });
  });

  it('counts text in open shadow roots as the read reads it', () => {
    const sections = Array.from(
      { length: 30 },
      (_, i) => `<section><h2>Part ${i}</h2><p>Words of part ${i}</p></section>`,
    );
    document.body.innerHTML = sections.join('');
    const light = pageText(document.body, 200);
    document.body.innerHTML = sections.map((_, i) => `<x-part id="p${i}"></x-part>`).join('');
    sections.forEach((html, i) => {
      document.getElementById(`p${i}`)!.attachShadow({ mode: 'open' }).innerHTML = html;
    });
    const whole = pageText(document.body, Number.POSITIVE_INFINITY).content;
    expect(whole).toContain('Words of part 29');
    const shadow = pageText(document.body, 200);
    expect(shadow).toMatchObject({ truncated: true, totalChars: whole.length });
    expect(shadow.totalChars).toBe(light.totalChars);
  });

  it('reads open shadow roots in place, in document order, with slotted content where its slot is', () => {
    document.body.innerHTML =
      '<h1>Todos</h1><todo-app><span slot="count">2 items left</span>stray light text</todo-app><footer>Double-click to edit</footer>';
    const app = document.querySelector('todo-app')!;
    const shadow = app.attachShadow({ mode: 'open' });
    shadow.innerHTML =
      '<ul><li>Buy tea</li><li><todo-item></todo-item></li></ul><p><slot name="count">no count</slot></p><p><slot name="empty">Fallback shown</slot></p><style>.x{}</style><p hidden>HIDDEN</p>';
    shadow.querySelector('todo-item')!.attachShadow({ mode: 'open' }).innerHTML =
      '<label>Walk the dog</label>';
    expect(visibleText(document.body)).toBe(
      'Todos\nBuy tea\nWalk the dog\n2 items left\nFallback shown\nDouble-click to edit',
    );
  });

  it('follows shadow roots nested inside each other only so deep', () => {
    document.body.innerHTML = '<p>Top</p><x-0></x-0>';
    let host = document.querySelector('x-0')!;
    for (let depth = 1; depth <= 40; depth++) {
      const shadow = host.attachShadow({ mode: 'open' });
      shadow.innerHTML = `<p>level ${depth}</p><x-${depth}></x-${depth}>`;
      host = shadow.querySelector(`x-${depth}`)!;
    }
    const text = visibleText(document.body);
    expect(text).toContain('level 32');
    expect(text).not.toContain('level 33');
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

  it('with a selector: says when the text or the HTML was cut, and how long each was', () => {
    const words = Array.from({ length: 1_500 }, (_, i) => `word${i}`).join(' ');
    document.body.innerHTML = `<section id="long">${words}</section><p id="wide" class="${'x'.repeat(25_000)}">short</p>`;
    const long = readPage({ selector: '#long' }) as Record<string, unknown>;
    expect(long.truncated).toBe(true);
    expect(long.totalChars).toBe(words.length);
    expect(long.totalHtmlChars).toBeUndefined();
    const content = long.content as string;
    expect(content.length).toBeLessThanOrEqual(READ_PAGE_MAX_CHARS + 1);
    // Cut at a word boundary: what is left ends in a whole word, then the ellipsis.
    expect(content).toMatch(/ word\d+…$/);
    expect(words.startsWith(content.slice(0, -1))).toBe(true);
    const wide = readPage({ selector: '#wide' }) as Record<string, unknown>;
    expect(wide).toMatchObject({ content: 'short', truncated: true });
    expect(wide.totalChars).toBeUndefined();
    expect(wide.totalHtmlChars).toBeGreaterThan(25_000);
    expect((wide.html as string).length).toBe(20_000);
  });
});
