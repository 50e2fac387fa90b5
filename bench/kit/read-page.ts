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
  ours: Reading & { startsWith: string };
  /** `document.body.innerText`, the baseline. */
  native: Reading;
}

/** read_page's visible-text walk against innerText on generated 10,000- and 50,000-element pages. */
export async function measureReadPage(browser: Browser, url: string): Promise<ReadPageRow[]> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(url);
  await page.waitForFunction(() => 'bench' in window);
  const rows: ReadPageRow[] = [];
  for (const target of [10_000, 50_000]) {
    const elements = await page.evaluate(
      (n) => (window as unknown as { bench: { generate(n: number): number } }).bench.generate(n),
      target,
    );
    const result = await page.evaluate(() =>
      (window as unknown as { bench: { run(r: number): Omit<ReadPageRow, 'elements'> } }).bench.run(30),
    );
    if (
      result.ours.leaks.length > 0 ||
      result.ours.chars !== 5_000 ||
      !result.ours.startsWith.startsWith('Section 0')
    )
      throw new Error(`read_page is wrong on ${elements} elements: ${JSON.stringify(result.ours)}`);
    rows.push({ elements, ...result });
    console.log(
      `read_page ${elements} elements: ${result.ours.medianMs.toFixed(2)} ms vs innerText ${result.native.medianMs.toFixed(2)} ms (leaks: ${result.native.leaks.join(', ') || 'none'})`,
    );
  }
  await page.close();
  return rows;
}
