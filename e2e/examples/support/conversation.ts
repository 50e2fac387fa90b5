import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { ask } from '../../kit/support/widget.js';

/** The newest assistant message in the widget. */
export const lastReply = (page: Page): Locator => page.locator('diosc-widget .message.assistant').last();

/** Its text (the reply's markdown as rendered), once the turn has finished streaming. */
export async function replyText(page: Page): Promise<string> {
  await expect.poll(() => lastReply(page).getAttribute('aria-busy')).toBe('false');
  return (await lastReply(page).locator('.text').textContent()) ?? '';
}

/**
 * Sends a message as the visitor would (type, Enter) and resolves with the reply's text once the
 * turn has answered with a new assistant message.
 */
export async function say(page: Page, text: string): Promise<string> {
  const replies = () => page.locator('diosc-widget .message.assistant').count();
  const before = await replies();
  await ask(page, text);
  await expect.poll(replies, { timeout: 15_000 }).toBe(before + 1);
  return replyText(page);
}
