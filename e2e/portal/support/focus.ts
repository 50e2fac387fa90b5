import type { Page } from 'playwright-core';

/** Where keyboard focus really is, looking through open shadow roots. */
export interface FocusedElement {
  tag: string;
  id: string;
  text: string;
  /** The custom element whose shadow root holds it ('' at document level). */
  host: string;
  attributes: Record<string, string>;
}

export function focused(page: Page): Promise<FocusedElement> {
  return page.evaluate(() => {
    let active: Element | null = document.activeElement;
    let host = '';
    while (active?.shadowRoot?.activeElement) {
      host = active.tagName.toLowerCase();
      active = active.shadowRoot.activeElement;
    }
    const element = active ?? document.body;
    const attributes: Record<string, string> = {};
    for (const name of ['type', 'class', 'role', 'data-collection', 'data-function', 'aria-disabled', 'href'])
      if (element.hasAttribute(name)) attributes[name] = element.getAttribute(name)!;
    return {
      tag: element.tagName.toLowerCase(),
      id: element.id,
      text: (element.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 80),
      host,
      attributes,
    };
  });
}

/** Presses Tab until focus matches, and fails after `max` presses: a keyboard user's way there. */
export async function tabTo(
  page: Page,
  matches: (element: FocusedElement) => boolean,
  max = 60,
): Promise<FocusedElement> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    const element = await focused(page);
    if (matches(element)) return element;
  }
  throw new Error(
    `Tab never reached the element (${max} presses); last: ${JSON.stringify(await focused(page))}`,
  );
}

/**
 * The contrast of the focused element's focus indicator (its outline) against the background it
 * is drawn on, and of its own border when it is a text field or checkbox (WCAG 1.4.11, ≥ 3:1).
 */
export function focusContrast(page: Page): Promise<{ ring: number; border: number | null; detail: string }> {
  return page.evaluate(() => {
    let active: Element | null = document.activeElement;
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
    const element = active as HTMLElement;
    const rgb = (value: string) => {
      const parts = value.match(/[\d.]+/g)?.map(Number) ?? [0, 0, 0, 0];
      return { r: parts[0]!, g: parts[1]!, b: parts[2]!, a: parts[3] ?? 1 };
    };
    const luminance = ({ r, g, b }: { r: number; g: number; b: number }) => {
      const f = (c: number) => {
        const s = c / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    };
    const ratio = (a: string, b: string) => {
      const [x, y] = [luminance(rgb(a)), luminance(rgb(b))].sort((m, n) => n - m);
      return (x! + 0.05) / (y! + 0.05);
    };
    /** The first opaque background at or above `from` (crossing shadow roots), else the page's. */
    const backgroundOf = (from: Element | null): string => {
      let node: Element | null = from;
      while (node) {
        const color = getComputedStyle(node).backgroundColor;
        if (rgb(color).a > 0.5) return color;
        node = node.parentElement ?? ((node.getRootNode() as ShadowRoot).host as Element | undefined) ?? null;
      }
      return getComputedStyle(document.body).backgroundColor;
    };
    const style = getComputedStyle(element);
    // The ring sits outside the element (outline-offset), on the background of its container.
    const behind = backgroundOf(element.parentElement ?? (element.getRootNode() as ShadowRoot).host);
    const ring =
      style.outlineStyle === 'none' || Number.parseFloat(style.outlineWidth) < 1
        ? 0
        : ratio(style.outlineColor, behind);
    const field =
      element.tagName === 'INPUT' || element.tagName === 'SELECT' || element.tagName === 'TEXTAREA';
    const isCheckbox = element.tagName === 'INPUT' && (element as HTMLInputElement).type === 'checkbox';
    const border = field && !isCheckbox ? ratio(style.borderTopColor, backgroundOf(element)) : null;
    return {
      ring,
      border,
      detail: `${element.tagName.toLowerCase()} outline ${style.outlineStyle} ${style.outlineWidth} ${style.outlineColor} on ${behind}; border ${style.borderTopColor}`,
    };
  });
}

/** How far the page is wider than its viewport (0 when it reflows). */
export function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}
