import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agUiWire, kitWire, TOOL_NAME, type VisitorWire } from './visitor-wires.js';
import { realHub, type WireTarget, WRITE } from './wire-targets.js';

/**
 * Where the kit's wire and AG-UI's share behaviour, the same case runs over both against the real
 * hub: a page tool's result is taken once (the same again is a duplicate, another a conflict, and
 * the model reads it once), and a decision for other arguments than the ones under review is
 * refused and runs nothing — one door behind both wires.
 */
describe.each([
  { name: 'the kit’s wire', wire: kitWire, tool: TOOL_NAME.kit },
  { name: 'AG-UI', wire: agUiWire, tool: TOOL_NAME.agUi },
])('one hub behind two wires: $name', ({ wire, tool }) => {
  let target: WireTarget;
  let visitor: VisitorWire;
  let calls: () => number;
  beforeAll(async () => {
    target = await realHub();
    visitor = await wire(target);
    calls = () => target.modelCalls!();
  });
  afterAll(async () => target?.close());

  it('takes a tool result once: the same again is a duplicate, another is result_conflict', async () => {
    target.plan({ tool, args: { id: 'row-7' }, reply: 'Picked row 7.' });
    const id = await visitor.askTool('Pick row 7');
    expect(await visitor.answer(id, { picked: 'row-7' })).toEqual({ ack: 'accepted' });
    const afterFirst = calls();
    expect(await visitor.answer(id, { picked: 'row-7' })).toEqual({ ack: 'duplicate' });
    expect(await visitor.answer(id, { picked: 'row-8' })).toEqual({ status: 409, code: 'result_conflict' });
    expect(calls()).toBe(afterFirst);
  });

  it('refuses a decision for other arguments than those under review, and nothing runs', async () => {
    target.plan({ approve: WRITE, reply: 'Written.' });
    const request = await visitor.askApproval('Write the plan');
    expect(request.argsDigest).toMatch(/^[0-9a-f]{64}$/);
    const before = calls();
    expect(await visitor.decide(request.id, { decision: 'approve', argsDigest: '0'.repeat(64) })).toEqual({
      status: 409,
      code: 'decision_mismatch',
    });
    expect(calls()).toBe(before);
    expect(
      await visitor.decide(request.id, { decision: 'reject', argsDigest: request.argsDigest }),
    ).toMatchObject({
      ack: 'accepted',
    });
  });
});
