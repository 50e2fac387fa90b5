// The read_page bench page: the kit's own pageText() (read_page without a selector) against innerText on generated pages.
import { pageText } from '@diosc/kit/read-page';

export const MARKERS = [
  'HIDDEN-DISPLAY',
  'HIDDEN-ATTR',
  'ARIA-HIDDEN',
  'SVG-TEXT',
  'SCRIPT-TEXT',
  'STYLE-TEXT',
  'IFRAME-TEXT',
  'PASSWORD-VALUE',
  'VIS-HIDDEN',
];

/**
 * A page of about `n` elements: a large hidden subtree first, an aria-hidden block, an SVG with
 * text, script/style/iframe/password markers, then visible sections where every third element has a
 * hidden sibling — so a reader must check visibility all the way, not only at the top. `shadow`
 * puts each visible section in an open shadow root.
 */
function generate(n: number, shadow = false): number {
  const body = document.body;
  body.replaceChildren();
  const add = (parent: Element, tag: string, text?: string, attrs: Record<string, string> = {}) => {
    const element = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs)) element.setAttribute(key, value);
    if (text) element.textContent = text;
    parent.append(element);
    return element;
  };
  const hidden = add(body, 'div', undefined, { style: 'display:none' });
  for (let i = 0; i < n * 0.3; i++) add(hidden, 'span', `HIDDEN-DISPLAY ${i}`);
  const aria = add(body, 'div', undefined, { 'aria-hidden': 'true' });
  for (let i = 0; i < 200; i++) add(aria, 'span', `ARIA-HIDDEN ${i}`);
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  body.append(svg);
  for (let i = 0; i < 100; i++) {
    const text = document.createElementNS('http://www.w3.org/2000/svg', 'text');
    text.textContent = `SVG-TEXT ${i}`;
    svg.append(text);
  }
  add(body, 'script', 'window.SCRIPT_TEXT = "SCRIPT-TEXT";', { type: 'text/plain' });
  add(body, 'style', '.never::after { content: "STYLE-TEXT"; }');
  add(body, 'iframe', undefined, { srcdoc: 'IFRAME-TEXT' });
  add(body, 'input', undefined, { type: 'password', value: 'PASSWORD-VALUE' });
  add(body, 'div', 'HIDDEN-ATTR', { hidden: '' });
  let count = document.body.querySelectorAll('*').length;
  let section = 0;
  while (count < n) {
    // The shadow variant: each section inside a web component's open shadow root, as Lit draws it.
    const block = shadow
      ? (add(body, 'bench-section')
          .attachShadow({ mode: 'open' })
          .appendChild(document.createElement('section')) as Element)
      : add(body, 'section');
    add(block, 'h2', `Section ${section++}`);
    for (let i = 0; i < 30 && count < n; i++) {
      const p = add(block, 'p');
      add(p, 'span', `Visible words ${section}.${i} about tea and prices `);
      if (i % 3 === 0) add(p, 'span', 'VIS-HIDDEN', { style: 'visibility:hidden' });
      else add(p, 'b', 'bold ');
      count += 3;
    }
    count += 2;
  }
  void document.body.offsetHeight;
  return shadow ? count : document.body.querySelectorAll('*').length;
}

/** Without cross-origin isolation the clock ticks in 100 µs steps: each sample times a batch of calls. */
const BATCH = 10;
/**
 * Calls made, untimed, between the first call and the samples. Without them the first page's
 * samples caught the engine still optimising: its first ~130 calls ran 2–6× slower than the rest,
 * so its median told where the warm-up ended rather than what a read costs (the first call is
 * reported on its own).
 */
const WARM_UP = 200;

function time(
  run: () => string,
  repeats: number,
): { medianMs: number; p95Ms: number; firstMs: number; text: string } {
  const samples: number[] = [];
  const start = performance.now();
  let text = run();
  const first = performance.now() - start;
  for (let i = 0; i < WARM_UP; i++) text = run();
  for (let i = 0; i < repeats; i++) {
    const begin = performance.now();
    for (let j = 0; j < BATCH; j++) text = run();
    samples.push((performance.now() - begin) / BATCH);
  }
  samples.sort((a, b) => a - b);
  return {
    medianMs: samples[Math.floor(samples.length / 2)]!,
    p95Ms: samples[Math.floor(samples.length * 0.95)]!,
    firstMs: first,
    text,
  };
}

Object.assign(window, {
  bench: {
    generate,
    run(repeats: number) {
      let answer = pageText(document.body);
      const ours = time(() => {
        answer = pageText(document.body);
        return answer.content;
      }, repeats);
      // What a read with no cut gives: the total the answer's count is held to (not timed).
      const wholeChars = pageText(document.body, Number.POSITIVE_INFINITY).content.length;
      // biome-ignore lint/performance/useDomNodeTextContent: innerText is the baseline being measured.
      const inner = time(() => document.body.innerText, repeats);
      const leaks = (text: string) => MARKERS.filter((marker) => text.includes(marker));
      return {
        ours: {
          medianMs: ours.medianMs,
          p95Ms: ours.p95Ms,
          firstMs: ours.firstMs,
          chars: ours.text.length,
          leaks: leaks(ours.text),
          startsWith: ours.text.slice(0, 40),
          truncated: answer.truncated === true,
          totalChars: answer.totalChars ?? null,
          totalCharsAtLeast: answer.totalCharsAtLeast ?? null,
          wholeChars,
        },
        native: {
          medianMs: inner.medianMs,
          p95Ms: inner.p95Ms,
          firstMs: inner.firstMs,
          chars: inner.text.length,
          leaks: leaks(inner.text),
        },
      };
    },
  },
});
