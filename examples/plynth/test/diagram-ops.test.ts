import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { reviewRows, reviewSummary } from '../src/diagram/change-review.js';
import { type Diagram, NODE_HEIGHT, NODE_WIDTH } from '../src/diagram/diagram.js';
import { diagramMarkdown } from '../src/diagram/diagram-markdown.js';
import { applyOps, type DiagramOp } from '../src/diagram/diagram-ops.js';
import { SAMPLE_DIAGRAMS } from '../src/documents/samples.js';

const onboarding = (): Diagram => structuredClone(SAMPLE_DIAGRAMS[0]!);

describe('applyOps: every change to a diagram, all or nothing', () => {
  it('a later op may use a step an earlier one added; ids are the given one or the next free', () => {
    const result = applyOps(onboarding(), [
      { op: 'add_node', id: 'legal', label: 'Legal review', after: 'n3' },
      { op: 'connect', from: 'n3', to: 'legal' },
      { op: 'add_node', label: '  Archive  ' },
    ]);
    expect(result).toMatchObject({
      ok: true,
      applied: ['added step legal “Legal review”', 'connected n3 → legal (e4)', 'added step n5 “Archive”'],
    });
    if (!result.ok) return;
    expect(result.diagram.nodes.map((node) => node.label)).toContain('Archive');
    expect(result.diagram.edges.at(-1)).toEqual({ id: 'e4', from: 'n3', to: 'legal' });
  });

  it('deleting a step takes its arrows with it; renaming trims and caps the label', () => {
    const result = applyOps(onboarding(), [
      { op: 'delete_node', id: 'n2' },
      { op: 'rename', id: 'n3', label: `  ${'x'.repeat(80)} ` },
    ]);
    if (!result.ok) throw new Error(result.error);
    expect(result.diagram.edges.map((edge) => edge.id)).toEqual(['e3']);
    expect(result.diagram.nodes.find((node) => node.id === 'n3')?.label).toBe('x'.repeat(60));
  });

  it('the first op that cannot apply leaves the diagram as it was and says which and why', () => {
    const before = onboarding();
    const cases: [DiagramOp[], string][] = [
      [[{ op: 'rename', id: 'n9', label: 'x' }], 'op 1 (rename): id "n9" is not a step of this diagram'],
      [
        [
          { op: 'add_node', label: 'ok' },
          { op: 'connect', from: 'n1', to: 'n1' },
        ],
        'op 2 (connect): a step cannot connect to itself',
      ],
      [[{ op: 'connect', from: 'n1', to: 'n2' }], 'op 1 (connect): n1 is already connected to n2'],
      [
        [{ op: 'add_node', id: 'n1', label: 'dup' }],
        'op 1 (add_node): "n1" is taken or is not a plain id (a-z, 0-9, _ or -)',
      ],
      [
        [{ op: 'add_node', id: 'Bad Id', label: 'x' }],
        'op 1 (add_node): "Bad Id" is taken or is not a plain id (a-z, 0-9, _ or -)',
      ],
      [[{ op: 'add_node', label: '   ' }], 'op 1 (add_node): add_node needs a label'],
      [[{ op: 'delete_edge', from: 'n4', to: 'n1' }], 'op 1 (delete_edge): no arrow n4 → n1'],
      [
        [{ op: 'explode' } as unknown as DiagramOp],
        'op 1 (explode): unknown op "explode"; use add_node, connect, rename, delete_node, delete_edge',
      ],
    ];
    for (const [ops, error] of cases) {
      expect(applyOps(before, ops)).toEqual({ ok: false, at: ops.length - 1, error });
      expect(before).toEqual(onboarding());
    }
  });

  it('property: any sequence of adds, connects and deletes keeps ids unique, arrows attached and steps apart', () => {
    const opArbitrary = fc.oneof(
      fc.record({
        op: fc.constant('add_node' as const),
        label: fc.string({ minLength: 1, maxLength: 10 }),
        after: fc.option(fc.constantFrom('n1', 'n2', 'n3', 'n4', 'n5', 'n6'), { nil: undefined }),
      }),
      fc.record({
        op: fc.constant('connect' as const),
        from: fc.constantFrom('n1', 'n2', 'n5', 'n6'),
        to: fc.constantFrom('n3', 'n4', 'n5', 'n7'),
      }),
      fc.record({
        op: fc.constant('delete_node' as const),
        id: fc.constantFrom('n1', 'n2', 'n3', 'n4', 'n5'),
      }),
    );
    fc.assert(
      fc.property(fc.array(opArbitrary, { maxLength: 25 }), (ops) => {
        let diagram = onboarding();
        for (const op of ops) {
          const result = applyOps(diagram, [op]);
          if (result.ok) diagram = result.diagram;
        }
        const ids = diagram.nodes.map((node) => node.id);
        expect(new Set(ids).size).toBe(ids.length);
        for (const edge of diagram.edges) expect(ids).toEqual(expect.arrayContaining([edge.from, edge.to]));
        for (const a of diagram.nodes)
          for (const b of diagram.nodes)
            if (a !== b)
              expect(Math.abs(a.x - b.x) >= NODE_WIDTH || Math.abs(a.y - b.y) >= NODE_HEIGHT).toBe(true);
      }),
    );
  });
});

describe('the approval review: before → after, computed in the browser', () => {
  it('one row an op, on a running copy, so an arrow to a step added earlier in the batch reads right', () => {
    const ops: DiagramOp[] = [
      { op: 'add_node', id: 'legal', label: 'Legal review' },
      { op: 'connect', from: 'n3', to: 'legal' },
      { op: 'rename', id: 'n2', label: 'Confirm email' },
      { op: 'delete_edge', id: 'e1' },
      { op: 'delete_node', id: 'n4' },
      { op: 'delete_node', id: 'n9' },
    ];
    expect(reviewRows(onboarding(), ops)).toEqual([
      { field: 'Step legal', current: '—', next: 'Legal review' },
      { field: 'Arrow', current: '—', next: 'Draft contract → Legal review' },
      { field: 'Step n2', current: 'Verify email', next: 'Confirm email' },
      { field: 'Arrow e1', current: 'Sign-up form → Confirm email', next: '— (deleted)' },
      { field: 'Step n4', current: 'Welcome call (and its 1 arrow)', next: '— (deleted)' },
      { field: 'Step n9', current: 'n9 (not found)', next: '— (deleted)' },
    ]);
    expect(reviewSummary(ops)).toBe('Apply 6 change(s) to the diagram, including 3 deletion(s)');
    expect(reviewSummary(ops.slice(0, 3))).toBe('Apply 3 change(s) to the diagram');
  });
});

describe('diagramMarkdown: the snapshot’s content', () => {
  it('lists steps and arrows by id; a label stays text (no markup, no new lines)', () => {
    const diagram = onboarding();
    diagram.nodes[0]!.label = 'Sign *up* [here](javascript:x)\n# not a heading';
    expect(diagramMarkdown(diagram)).toBe(
      [
        '# Customer onboarding',
        '',
        '## Steps (4)',
        '- `n1` Sign \\*up\\* \\[here\\](javascript:x) \\# not a heading',
        '- `n2` Verify email',
        '- `n3` Draft contract',
        '- `n4` Welcome call',
        '',
        '## Arrows (3)',
        '- `e1` `n1` → `n2` (Sign \\*up\\* \\[here\\](javascript:x) \\# not a heading → Verify email)',
        '- `e2` `n2` → `n3` (Verify email → Draft contract)',
        '- `e3` `n3` → `n4` (Draft contract → Welcome call)',
      ].join('\n'),
    );
    expect(diagramMarkdown({ id: 'x', title: 'Empty', nodes: [], edges: [] })).toContain('- (none yet)');
  });
});
