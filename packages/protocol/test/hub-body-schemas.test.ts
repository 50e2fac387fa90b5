import { describe, expect, it } from 'vitest';
import { HUB_BODY_SCHEMAS } from '../src/index.js';
import { validateHubBody } from '../src/validators.js';

type Node = Record<string, unknown>;

/** Every schema position of a body schema, with the data path it validates (`0` for an array item). */
function schemaNodes(schema: unknown, path: (string | 0)[] = []): [string, Node][] {
  if (schema === null || typeof schema !== 'object') return [];
  const node = schema as Node;
  const found: [string, Node][] = [[['$', ...path].join('.'), node]];
  for (const [name, sub] of Object.entries((node.properties ?? {}) as Node))
    found.push(...schemaNodes(sub, [...path, name]));
  if (node.items !== undefined) found.push(...schemaNodes(node.items, [...path, 0]));
  if (typeof node.additionalProperties === 'object')
    found.push(...schemaNodes(node.additionalProperties, [...path, '*']));
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const)
    for (const sub of (node[key] ?? []) as unknown[]) found.push(...schemaNodes(sub, path));
  return found;
}

const types = (node: Node) => ([] as unknown[]).concat(node.type ?? []);
/** A position that takes any value, or any object: nothing about its fields is checked here. */
const freeForm = (node: Node) =>
  (Object.keys(node).length === 0 || (types(node).includes('object') && node.properties === undefined)) &&
  node.additionalProperties !== false;

/**
 * The only places a hub body takes values whose fields are not ours to name: a page's structured
 * data, a page intent's own JSON Schema, a browser tool's result, and edited tool arguments (checked
 * later against the tool's own schema). Anything else free-form is a hole.
 */
const FREE_FORM = [
  'sendMessage $.snapshot.data',
  'sendMessage $.registry.intents.0.schema',
  'interruptAnswer $.result',
  'interruptAnswer $.snapshot.data',
  'interruptAnswer $.registry.intents.0.schema',
  'consensusDecision $.args',
  'agUiRun $.tools.0.parameters',
  'agUiRun $.resume.0.payload',
];

describe('hub body schemas', () => {
  it('refuse unknown fields at every depth of every body, but for the listed free-form values', () => {
    const free: string[] = [];
    for (const [name, schema] of Object.entries(HUB_BODY_SCHEMAS)) {
      const nodes = schemaNodes(schema);
      expect(types(nodes[0]![1]), name).toEqual(['object']);
      for (const [path, node] of nodes) {
        if (freeForm(node)) free.push(`${name} ${path}`);
        else if (types(node).includes('object'))
          expect(node.additionalProperties, `${name} ${path}`).toBe(false);
      }
    }
    expect(free.sort()).toEqual([...FREE_FORM].sort());
  });

  it('refuse a sample body with one unknown field at each object depth, naming it', () => {
    for (const [name, sample] of Object.entries(HUB_BODY_SAMPLES)) {
      expect(
        () => validateHubBody(name as keyof typeof HUB_BODY_SCHEMAS, structuredClone(sample)),
        name,
      ).not.toThrow();
      const depths = objectDepths(name as keyof typeof HUB_BODY_SCHEMAS);
      expect(depths.length, name).toBeGreaterThan(0);
      for (const path of depths) {
        const body = withUnknownAt(sample, path);
        expect(
          () => validateHubBody(name as keyof typeof HUB_BODY_SCHEMAS, body),
          `${name} ${path.join('.')}`,
        ).toThrow(/must NOT have additional properties \(zz_unknown\)/);
      }
    }
  });
});

/** A body of each schema that reaches every object of it. */
const HUB_BODY_SAMPLES: Record<keyof typeof HUB_BODY_SCHEMAS, unknown> = {
  emptyBody: {},
  openSession: { publishableKey: 'pk_0123456789' },
  sendMessage: {
    text: 'hi',
    snapshot: { url: 'https://shop.example/', title: 'Shop', data: { any: 1 } },
    registry: {
      tools: ['read_page'],
      intents: [
        {
          name: 'add_to_cart',
          description: 'Add',
          schema: { type: 'object' },
          approval: { severity: 'low' },
        },
      ],
    },
  },
  interruptAnswer: {
    result: { any: 1 },
    snapshot: { url: 'https://shop.example/', title: 'Shop' },
    registry: {
      tools: [],
      intents: [
        {
          name: 'add_to_cart',
          description: 'Add',
          schema: { type: 'object' },
          approval: { severity: 'low' },
        },
      ],
    },
    file: {
      fileId: 'fil_1',
      filename: 'a.txt',
      format: 'txt',
      downloadUrl: '/api/hub/files/fil_1',
      sizeBytes: 1,
    },
    decision: { decision: 'edit', changed: ['id'], reason: 'why' },
  },
  consensusDecision: { decision: 'approve', argsDigest: 'a'.repeat(64) },
  agUiRun: {
    threadId: 'cnv_1',
    runId: 'run_1',
    state: {},
    forwardedProps: {},
    context: [],
    messages: [
      {
        id: 'm1',
        role: 'assistant',
        content: 'hi',
        toolCalls: [{ id: 'tc_1', type: 'function', function: { name: 'pick', arguments: '{}' } }],
      },
    ],
    tools: [{ name: 'pick', description: 'Pick', parameters: { type: 'object' } }],
    resume: [{ interruptId: 'tc_1', status: 'resolved', payload: { result: 1 }, metadata: {} }],
  },
};

/** The data paths of every object of `name`'s schema that is not a listed free-form value. */
function objectDepths(name: keyof typeof HUB_BODY_SCHEMAS): (string | 0)[][] {
  return schemaNodes(HUB_BODY_SCHEMAS[name])
    .filter(([, node]) => types(node).includes('object') && !freeForm(node))
    .map(([path]) =>
      path
        .split('.')
        .slice(1)
        .map((key) => (key === '0' ? 0 : key)),
    );
}

function withUnknownAt(sample: unknown, path: (string | 0)[]): unknown {
  const body = structuredClone(sample) as Node;
  let at: Node = body;
  for (const key of path) at = (at as Record<string | number, unknown>)[key] as Node;
  at.zz_unknown = 1;
  return body;
}
