import { describe, expect, it } from 'vitest';
import { serverToolNames } from '../src/assistants/consensus-table.js';
import { LIMITS, readSettings } from '../src/assistants/settings-input.js';
import { groupedBars, niceMax } from '../src/assistants/usage-chart.js';
import {
  integerProblem,
  mcpServerProblems,
  originProblem,
  parseOrigins,
  parseToolSchema,
  routeProblems,
  toolNameProblem,
} from '../src/assistants/validation.js';

describe('allowed origins are exact origins', () => {
  it('accepts scheme://host[:port] exactly as a browser sends it', () => {
    for (const origin of ['https://shop.example', 'http://localhost:5173', 'http://127.0.0.1:8080'])
      expect(originProblem(origin)).toBeNull();
  });

  it('refuses paths, trailing slashes, wildcards, credentials, other schemes and non-canonical forms', () => {
    expect(originProblem('https://shop.example/')?.key).toBe('originPath');
    expect(originProblem('https://shop.example/app')?.key).toBe('originPath');
    expect(originProblem('https://shop.example?x=1')?.key).toBe('originPath');
    expect(originProblem('https://*.shop.example')?.key).toBe('originWildcard');
    expect(originProblem('https://user:pw@shop.example')?.key).toBe('originCredentials');
    expect(originProblem('ftp://shop.example')?.key).toBe('originScheme');
    expect(originProblem('javascript:alert(1)')?.key).toBe('originScheme');
    expect(originProblem('shop.example')?.key).toBe('originNotUrl');
    expect(originProblem('https://SHOP.example')).toEqual({
      key: 'originCanonical',
      params: { value: 'https://SHOP.example', origin: 'https://shop.example' },
    });
    expect(originProblem('https://shop.example:443')?.key).toBe('originCanonical');
  });

  it('names the line of each bad origin and refuses duplicates', () => {
    const { origins, problems } = parseOrigins('https://a.example\n\nhttps://a.example\nhttp://b.example/x');
    expect(origins).toEqual(['https://a.example']);
    expect(problems).toEqual([
      { key: 'originTwice', params: { value: 'https://a.example', line: 3 } },
      { key: 'originPath', params: { value: 'http://b.example/x', origin: 'http://b.example', line: 4 } },
    ]);
  });
});

describe('browser tool declarations', () => {
  it('checks names against the kit pattern and the other tools', () => {
    expect(toolNameProblem('highlight_row')).toBeNull();
    expect(toolNameProblem('')?.key).toBe('toolNameEmpty');
    expect(toolNameProblem('1abc')?.key).toBe('toolName');
    expect(toolNameProblem('has space')?.key).toBe('toolName');
    expect(toolNameProblem('a'.repeat(65))?.key).toBe('toolName');
    expect(toolNameProblem('x', ['x'])?.key).toBe('toolNameTaken');
  });

  it('accepts an object schema and refuses bad JSON, non-object roots and malformed keywords', () => {
    const ok = parseToolSchema('{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}');
    expect(ok).toEqual({
      schema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
    });
    const problem = (text: string) =>
      'problem' in parseToolSchema(text)
        ? (parseToolSchema(text) as { problem: { key: string } }).problem.key
        : null;
    expect(problem('{"type": "object",}')).toBe('schemaJson');
    expect(problem('[]')).toBe('schemaNotObject');
    expect(problem('{"type":"string"}')).toBe('schemaRoot');
    expect(problem('{"type":"object","properties":{"id":{"type":"text"}}}')).toBe('schemaType');
    expect(problem('{"type":"object","properties":[]}')).toBe('schemaProperties');
    expect(problem('{"type":"object","required":"id"}')).toBe('schemaRequired');
    expect(problem('{"type":"object","properties":{},"required":["id"]}')).toBe('schemaRequiredUnknown');
    expect(problem('{"type":"object","properties":{"tags":{"type":"array","items":{"type":"word"}}}}')).toBe(
      'schemaType',
    );
  });
});

describe('other fields', () => {
  it('limits are whole numbers within their range', () => {
    expect(integerProblem('12', 1, 50)).toBeNull();
    expect(integerProblem('0', 1, 50)?.key).toBe('range');
    expect(integerProblem('51', 1, 50)?.key).toBe('range');
    expect(integerProblem('1.5', 1, 50)?.key).toBe('integer');
    expect(integerProblem('', 1, 50)?.key).toBe('integer');
    expect(integerProblem('-3', 1, 50)?.key).toBe('integer');
  });

  it('MCP servers need a prefix-safe, unique name and an http(s) URL', () => {
    expect(mcpServerProblems('crm', 'https://mcp.example/mcp', [])).toEqual({ name: null, url: null });
    expect(mcpServerProblems('CRM', 'https://x', []).name?.key).toBe('mcpName');
    expect(mcpServerProblems('crm', 'https://x', ['crm']).name?.key).toBe('mcpNameTaken');
    expect(mcpServerProblems('crm', 'file:///etc/passwd', []).url?.key).toBe('mcpUrl');
    expect(mcpServerProblems('crm', 'not a url', []).url?.key).toBe('mcpUrl');
  });

  it('sitemap routes need a / pattern without query, a title, and distinct patterns', () => {
    expect(routeProblems([{ path: '/products/:id', title: 'Product' }])).toEqual({});
    expect(
      routeProblems([
        { path: 'products', title: 'P' },
        { path: '/a?b', title: 'A' },
        { path: '/c', title: ' ' },
        { path: '/c', title: 'C' },
      ]),
    ).toEqual({
      'route-path-0': { key: 'routePath' },
      'route-path-1': { key: 'routePathQuery' },
      'route-title-2': { key: 'routeTitle' },
      'route-path-3': { key: 'routeTwice', params: { line: 3 } },
    });
  });
});

describe('the usage chart geometry', () => {
  it('rounds the axis up to 1, 2 or 5 × 10ⁿ', () => {
    expect(niceMax([])).toBe(1);
    expect(niceMax([0, 0])).toBe(1);
    expect(niceMax([3])).toBe(5);
    expect(niceMax([12])).toBe(20);
    expect(niceMax([1000])).toBe(1000);
    expect(niceMax([1001])).toBe(2000);
  });

  it('draws one bar per series per day on one scale, within the box', () => {
    const bars = groupedBars(
      [
        { label: 'a', color: 'red', values: [10, 0, 5] },
        { label: 'b', color: 'blue', values: [2, 4, 1] },
      ],
      300,
      100,
    );
    expect(bars.map((row) => row.length)).toEqual([3, 3]);
    expect(bars[0]![0]!.height).toBe(100);
    expect(bars[0]![1]!.height).toBe(0);
    expect(bars[0]![2]!.height).toBe(50);
    expect(bars[1]![0]!.height).toBe(20);
    for (const bar of bars.flat()) {
      expect(bar.x).toBeGreaterThanOrEqual(0);
      expect(bar.x + bar.width).toBeLessThanOrEqual(300);
      expect(bar.y + bar.height).toBeCloseTo(100);
    }
    // The two series of one day sit side by side, not on top of each other.
    expect(bars[1]![0]!.x).toBeCloseTo(bars[0]![0]!.x + bars[0]![0]!.width);
  });
});

describe('the server tools that can take a Consensus severity', () => {
  it('are the granted functions, generate_file, the listed MCP tools by their hub names, and any already set', () => {
    expect(
      serverToolNames({
        grant: [{ collection: 'notes', functions: ['item_write', 'items_list'] }],
        generateFile: true,
        mcpTools: [{ server: 'crm', tools: [{ name: 'delete.contact' }] }],
        consensus: { old_tool: 'low' },
      }),
    ).toEqual([
      'collections_list',
      'items_list',
      'item_write',
      'generate_file',
      'crm__delete_contact',
      'old_tool',
    ]);
    expect(serverToolNames({ grant: [], generateFile: false, mcpTools: [], consensus: {} })).toEqual([]);
  });
});

describe('the settings form body', () => {
  const form = (fields: Record<string, string>) => {
    const data = new FormData();
    const defaults: Record<string, string> = {
      name: 'Shop helper',
      instructions: '',
      modelId: 'gpt-4o-mini',
      providerKey: '',
      origins: 'https://shop.example',
      maxStepsPerTurn: '12',
      messagesPerMinute: '20',
      interruptTimeoutMs: '120',
      consensusTimeoutMs: '600',
      sessionTtlMs: '1440',
      uploadMaxMiB: '10',
    };
    for (const [key, value] of Object.entries({ ...defaults, ...fields })) data.set(key, value);
    return data;
  };

  it('derives the limit bounds from the hub ranges, in seconds and minutes', () => {
    expect(LIMITS.map(({ key, min, max }) => [key, min, max])).toEqual([
      ['maxStepsPerTurn', 1, 50],
      ['messagesPerMinute', 1, 1000],
      ['interruptTimeoutMs', 1, 3600],
      ['consensusTimeoutMs', 1, 86_400],
      ['sessionTtlMs', 1, 43_200],
    ]);
  });

  it('sends milliseconds, leaves out empty instructions and an empty key, and refuses bad fields by id', () => {
    expect(readSettings(form({}), 'openai', true)).toEqual({
      input: {
        name: 'Shop helper',
        model: { provider: 'openai', id: 'gpt-4o-mini' },
        allowedOrigins: ['https://shop.example'],
        outsideLinks: false,
        files: { enabled: false, allowedTypes: [], maxFileBytes: 10 * 1024 * 1024 },
        limits: {
          maxStepsPerTurn: 12,
          messagesPerMinute: 20,
          interruptTimeoutMs: 120_000,
          consensusTimeoutMs: 600_000,
          sessionTtlMs: 86_400_000,
        },
      },
    });
    const uploads = form({ uploadsEnabled: 'on', uploadMaxMiB: '101' });
    expect(readSettings(uploads, 'openai', true)).toEqual({
      problems: {
        'upload-types': { key: 'uploadTypesEmpty' },
        'upload-max': { key: 'range', params: { min: 1, max: 100 } },
      },
    });
    uploads.append('uploadTypes', 'image/png');
    uploads.append('uploadTypes', 'application/x-custom');
    uploads.set('uploadMaxMiB', '5');
    const accepted = readSettings(uploads, 'openai', true);
    expect('input' in accepted && accepted.input.files).toEqual({
      enabled: true,
      allowedTypes: ['image/png', 'application/x-custom'],
      maxFileBytes: 5 * 1024 * 1024,
    });
    const refused = readSettings(
      form({ name: ' ', sessionTtlMs: '0', baseUrl: 'ftp://x' }),
      'openai-compatible',
      false,
    );
    expect(Object.keys('problems' in refused ? refused.problems : {}).sort()).toEqual([
      'baseUrl',
      'name',
      'sessionTtlMs',
    ]);
  });
});
