import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callsReach, lastResult } from '../kit/support/model-calls.js';
import { ask, dialog, recordAnswers, screenshot } from '../kit/support/widget.js';
import { lastReply, replyText, say } from './support/conversation.js';
import { type ExampleE2E, startExampleE2E } from './support/example-e2e.js';

let e2e: ExampleE2E;
let page: Page;
let problems: string[];
beforeAll(async () => {
  e2e = await startExampleE2E('plynth');
  ({ page, problems } = await e2e.open('/?doc=onboarding'));
});
afterAll(async () => {
  await e2e?.close();
});

const labels = () => page.locator('svg.canvas g.node text').allTextContents();
const arrows = () =>
  page.locator('svg.canvas g.edge').evaluateAll((edges) => edges.map((edge) => edge.getAttribute('data-id')));

describe('Plynth in Debian Chromium: the tutorial’s story, first message to last result', () => {
  it('the adapter’s snapshot rides on every message: the model reads the open document', async () => {
    const base = e2e.model.calls.length;
    expect(await say(page, 'Describe the diagram')).toBe(
      '“Customer onboarding” has 4 step(s) and 3 arrow(s). Steps: Sign-up form, Verify email, Draft contract, Welcome call.',
    );
    const call = await callsReach(e2e.model.calls, base + 1);
    const user = JSON.stringify(call.prompt.at(-1));
    expect(user).toContain('Description: Flowchart editor — the open document “Customer onboarding”');
    expect(user).toContain('- `n2` Verify email');
    expect(user).toContain('\\"nodeCount\\":4');
    expect(call.tools).toEqual(expect.arrayContaining(['browser_apply_changes', 'browser_export_png']));
    expect(call.tools).not.toContain('navigate');
  });

  it('Approve: the dialog holds the change with its before/after; nothing lands until the click', async () => {
    const base = e2e.model.calls.length;
    const answers = recordAnswers(page);
    await ask(page, 'Add Legal review after Draft contract');
    await dialog(page).waitFor();
    expect(await dialog(page).locator('h2').textContent()).toBe('Apply 2 change(s) to the diagram');
    expect(await dialog(page).locator('[part="severity-badge"]').textContent()).toBe('Medium impact');
    expect(await dialog(page).locator('tbody tr').allInnerTexts()).toEqual([
      'Step legal-review\t—\tLegal review',
      'Arrow\t—\tDraft contract → Legal review',
    ]);
    expect(await labels()).toHaveLength(4);
    await screenshot(page, 'plynth-approval');
    await page.getByRole('button', { name: 'Approve' }).click();
    const next = await callsReach(e2e.model.calls, base + 2);
    expect(lastResult(next, 'browser_apply_changes')).toEqual({
      type: 'json',
      value: {
        success: true,
        data: {
          applied: ['added step legal-review “Legal review”', 'connected n3 → legal-review (e4)'],
          nodeCount: 5,
          edgeCount: 4,
        },
      },
    });
    // Only the decision went back with the result: never the summary or the diff.
    expect(answers).toEqual([
      { result: lastResult(next, 'browser_apply_changes')!.value, decision: { decision: 'approve' } },
    ]);
    await expect.poll(labels).toContain('Legal review');
    expect(await arrows()).toContain('e4');
    await expect.poll(() => replyText(page)).toContain('The diagram now has 5 step(s) and 4 arrow(s).');
    await screenshot(page, 'plynth-approved');
  });

  it('Edit: the user’s values run instead of the model’s', async () => {
    const base = e2e.model.calls.length;
    const answers = recordAnswers(page);
    await ask(page, 'Rename Verify email to Confirm email');
    await dialog(page).waitFor();
    expect(await dialog(page).locator('tbody tr').allInnerTexts()).toEqual([
      'Step n2\tVerify email\tConfirm email',
    ]);
    await page.getByRole('button', { name: 'Edit' }).click();
    const ops = page.getByLabel('ops (JSON)');
    expect(JSON.parse(await ops.inputValue())).toEqual([{ op: 'rename', id: 'n2', label: 'Confirm email' }]);
    await ops.fill(JSON.stringify([{ op: 'rename', id: 'n2', label: 'Confirm address' }]));
    await page.getByRole('button', { name: 'Run with these values' }).click();
    const next = await callsReach(e2e.model.calls, base + 2);
    expect(lastResult(next, 'browser_apply_changes')?.value).toEqual({
      success: true,
      data: { applied: ['renamed n2 to “Confirm address”'], nodeCount: 5, edgeCount: 4 },
    });
    expect(answers).toEqual([expect.objectContaining({ decision: { decision: 'edit', changed: ['ops'] } })]);
    await expect.poll(labels).toContain('Confirm address');
    expect(await labels()).not.toContain('Confirm email');
  });

  it('Reject: nothing runs; the model reads “Action declined by user” with the reason', async () => {
    const base = e2e.model.calls.length;
    await ask(page, 'Delete Welcome call');
    await dialog(page).waitFor();
    expect(await dialog(page).locator('h2').textContent()).toBe(
      'Apply 1 change(s) to the diagram, including 1 deletion(s)',
    );
    expect(await dialog(page).locator('tbody tr').allInnerTexts()).toEqual([
      'Step n4\tWelcome call (and its 1 arrow)\t— (deleted)',
    ]);
    await screenshot(page, 'plynth-delete-review');
    await page.getByRole('button', { name: 'Reject…' }).click();
    await page
      .getByLabel('Reason (optional, shared with the assistant)')
      .fill('we still call every customer');
    await page.getByRole('button', { name: 'Reject', exact: true }).click();
    const next = await callsReach(e2e.model.calls, base + 2);
    expect(lastResult(next, 'browser_apply_changes')).toEqual({
      type: 'json',
      value: { success: false, error: 'Action declined by user: we still call every customer' },
    });
    await expect
      .poll(() => replyText(page))
      .toBe(
        'Understood — I left the diagram as it is (Action declined by user: we still call every customer).',
      );
    expect(await labels()).toContain('Welcome call');
  });

  it('by hand: add, rename, connect, move and delete; the next message’s snapshot has it all', async () => {
    await page.getByRole('button', { name: 'Add step', exact: true }).click();
    const label = page.getByLabel('Label of n5');
    await label.fill('Send invoice');
    await label.press('Enter');
    await expect.poll(labels).toContain('Send invoice');
    // Connect: select the source, press Connect, click the target.
    await page.locator('g.node[data-id="n4"]').click();
    await page.getByRole('button', { name: 'Connect' }).click();
    await page.locator('g.node[data-id="n5"]').click();
    await expect.poll(arrows).toContain('e5');
    // Move: drag the new step 220 units to the right.
    const box = (await page.locator('g.node[data-id="n5"] rect').boundingBox())!;
    await page.mouse.move(box.x + 20, box.y + 20);
    await page.mouse.down();
    await page.mouse.move(box.x + 240, box.y + 20, { steps: 8 });
    await page.mouse.up();
    const moved = (await page.locator('g.node[data-id="n5"] rect').boundingBox())!;
    expect(Math.round(moved.x - box.x)).toBeGreaterThan(150);
    // Delete: select a step, press Delete; its arrows go with it.
    await page.locator('g.node[data-id="legal-review"]').click();
    await page.keyboard.press('Delete');
    await expect.poll(labels).not.toContain('Legal review');
    expect(await arrows()).not.toContain('e4');
    await screenshot(page, 'plynth-editor');
    // Saved at once: a reload shows the same diagram, the step where it was dropped.
    await page.reload();
    await page.locator('g.node[data-id="n5"]').waitFor();
    expect(await labels()).toEqual([
      'Sign-up form',
      'Confirm address',
      'Draft contract',
      'Welcome call',
      'Send invoice',
    ]);
    expect(await page.locator('g.node[data-id="n5"]').getAttribute('transform')).toBe(
      await page.evaluate(() => {
        const doc = JSON.parse(localStorage.getItem('plynth-documents')!).find(
          (each: { id: string }) => each.id === 'onboarding',
        );
        const node = doc.nodes.find((each: { id: string }) => each.id === 'n5');
        return `translate(${node.x} ${node.y})`;
      }),
    );
    await page.locator('diosc-widget .launcher').click();
    expect(await say(page, 'Describe the diagram')).toBe(
      '“Customer onboarding” has 5 step(s) and 4 arrow(s). Steps: Sign-up form, Confirm address, Draft contract, Welcome call, Send invoice.',
    );
  });

  /** Holds the model's next step until `release()`, so the page can change while it "thinks". */
  function holdNextStep() {
    let release!: () => void;
    let reached!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const waiting = new Promise<void>((resolve) => {
      reached = resolve;
    });
    e2e.before = async () => {
      e2e.before = () => {};
      reached();
      await held;
    };
    return { waiting, release };
  }

  it('closing the editor while a change is on its way: the stale intent fails fast, nothing runs', async () => {
    const base = e2e.model.calls.length;
    const hold = holdNextStep();
    await ask(page, 'Delete Sign-up form');
    await hold.waiting;
    await page.getByRole('button', { name: 'Close document' }).click();
    await page.getByRole('heading', { name: 'No document is open' }).waitFor();
    hold.release();
    const next = await callsReach(e2e.model.calls, base + 2);
    expect(lastResult(next, 'browser_apply_changes')).toEqual({
      type: 'error-text',
      value: 'intent "apply_changes" no longer available — page changed',
    });
    expect(await dialog(page).isVisible()).toBe(false);
    await expect
      .poll(() => replyText(page))
      .toBe(
        'Nothing was changed (intent "apply_changes" no longer available — page changed). Open the document again and tell me what to do.',
      );
    await page.locator('button.document[data-id="onboarding"]').click();
    expect(await labels()).toContain('Sign-up form');
  });

  it('swapping to another document while a change is on its way: nothing runs on the new one', async () => {
    const base = e2e.model.calls.length;
    const hold = holdNextStep();
    await ask(page, 'Delete Sign-up form');
    await hold.waiting;
    await page.locator('button.document[data-id="release"]').click();
    await expect.poll(labels).toEqual(['Freeze branch', 'Run the tests', 'Tag the release']);
    hold.release();
    // The kit finds an apply_changes on the new adapter (same name), so it asks; the page's own
    // check says what it is and refuses to run it whatever the decision.
    await dialog(page).waitFor();
    expect(await dialog(page).locator('h2').textContent()).toBe(
      'Planned for another document (onboarding): nothing will change in “Release process”',
    );
    await page.getByRole('button', { name: 'Approve' }).click();
    const next = await callsReach(e2e.model.calls, base + 2);
    expect(lastResult(next, 'browser_apply_changes')?.value).toEqual({
      success: false,
      error: 'intent "apply_changes" no longer available — page changed',
    });
    expect(await labels()).toEqual(['Freeze branch', 'Run the tests', 'Tag the release']);
    await page.locator('button.document[data-id="onboarding"]').click();
    expect(await labels()).toContain('Sign-up form');
  });

  it('the user’s own Export PNG: a real PNG of the diagram, made with canvas.toBlob', async () => {
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export PNG' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('diagram.png');
    const bytes = await readFile((await file.path())!);
    expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    // IHDR: width and height at 2 pixels per unit of the 960-unit-wide drawing.
    expect(bytes.readUInt32BE(16)).toBe(1920);
    expect(bytes.readUInt32BE(20)).toBeGreaterThan(700);
  });

  it('“export it as PNG”: the chip is on the reply and survives a reload; the model sees only the descriptor', async () => {
    const base = e2e.model.calls.length;
    expect(await say(page, 'Export it as PNG')).toBe(
      'Here is “Customer onboarding” as a PNG — use the download chip below.',
    );
    const next = await callsReach(e2e.model.calls, base + 2);
    const value = lastResult(next, 'browser_export_png')?.value as {
      data: { sizeBytes: number };
      file: { fileId: string; sizeBytes: number };
    };
    expect(value).toEqual({
      success: true,
      data: { title: 'Customer onboarding', sizeBytes: expect.any(Number) },
      file: {
        fileId: expect.stringMatching(/^fil_/),
        filename: 'diagram.png',
        format: 'png',
        downloadUrl: `/api/hub/files/${value.file.fileId}`,
        sizeBytes: value.data.sizeBytes,
      },
    });
    // The PNG's bytes (base64 starts "iVBOR") are nowhere in what the model was sent.
    expect(JSON.stringify(next.prompt)).not.toContain('iVBOR');
    const chip = () => lastReply(page).locator('[part="file-chip"]');
    await expect.poll(() => chip().textContent()).toContain('diagram.png');
    await screenshot(page, 'plynth-png-chip');
    // Baked into the saved message: after a reload the chip is still there, and it downloads the PNG.
    await page.reload();
    await page.locator('diosc-widget .launcher').click();
    await expect.poll(() => chip().textContent()).toContain('diagram.png');
    const download = page.waitForEvent('download');
    await chip().click();
    const bytes = await readFile((await (await download).path())!);
    expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(bytes.length).toBe(value.file.sizeBytes);
  });

  it('the page ran the whole story under its Content-Security-Policy, with no uncaught error', () => {
    expect(problems).toEqual([]);
  });
});
