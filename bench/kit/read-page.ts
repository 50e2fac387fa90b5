import type { Browser } from 'playwright-core';

interface Reading {
  medianMs: number;
  p95Ms: number;
  firstMs: number;
  chars: number;
  leaks: string[];
}
export interface ReadPageRow {
  elements: number;
  /** Every visible section inside an open shadow root. */
  shadow: boolean;
  ours: Reading & {
    startsWith: string;
    truncated: boolean;
    /** How much there was, as the answer says it: exact, or at least (one of the two is null). */
    totalChars: number | null;
    totalCharsAtLeast: number | null;
    /** The length of the text with no cut, read once outside the timing. */
    wholeChars: number;
  };
  /** `document.body.innerText`, the baseline. */
  native: Reading;
}

/** read_page's text against innerText on generated 10,000- and 50,000-element pages, in light DOM and in shadow roots. */
export async function measureReadPage(browser: Browser, url: string): Promise<ReadPageRow[]> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(url);
  await page.waitForFunction(() => 'bench' in window);
  const rows: ReadPageRow[] = [];
  for (const [target, shadow] of [
    [10_000, false],
    [50_000, false],
    [10_000, true],
    [50_000, true],
  ] as const) {
    const elements = await page.evaluate(
      ([n, inShadow]) =>
        (window as unknown as { bench: { generate(n: number, shadow: boolean): number } }).bench.generate(
          n,
          inShadow,
        ),
      [target, shadow] as const,
    );
    const result = await page.evaluate(() =>
      (
        window as unknown as { bench: { run(r: number): Omit<ReadPageRow, 'elements' | 'shadow'> } }
      ).bench.run(30),
    );
    // Cut at a word boundary, with an ellipsis, and saying so — and how much there was: the exact
    // total, or a bound that is not more than it.
    const { totalChars, totalCharsAtLeast, wholeChars } = result.ours;
    const counted =
      totalChars !== null
        ? totalChars === wholeChars
        : totalCharsAtLeast !== null && totalCharsAtLeast <= wholeChars;
    if (
      result.ours.leaks.length > 0 ||
      result.ours.chars < 4_900 ||
      result.ours.chars > 5_001 ||
      !result.ours.truncated ||
      !counted ||
      !result.ours.startsWith.startsWith('Section 0')
    )
      throw new Error(`read_page is wrong on ${elements} elements: ${JSON.stringify(result.ours)}`);
    rows.push({ elements, shadow, ...result });
    console.log(
      `read_page ${elements} elements${shadow ? ' (shadow DOM)' : ''}: ${result.ours.medianMs.toFixed(2)} ms vs innerText ${result.native.medianMs.toFixed(2)} ms (leaks: ${result.native.leaks.join(', ') || 'none'})`,
    );
  }
  await page.close();
  return rows;
}
