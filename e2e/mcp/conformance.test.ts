import { startTestServer, type TestServer } from '@diosc/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BearerProxy, startBearerProxy } from './support/bearer-proxy.js';
import { conformanceInstalled, NODE_22, runScenario, serverScenarios } from './support/conformance-run.js';

/** The server scenarios that apply to a stateless, tools-only server: all must pass. */
const APPLICABLE = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection'];

/**
 * Every other server scenario of the suite, and why it does not apply. A new version of the suite
 * that adds a scenario fails the test below until it is sorted into one list or the other.
 */
const NOT_APPLICABLE: Record<string, string> = {
  'logging-set-level': 'no logging capability is declared',
  'completion-complete': 'no completions capability (no prompts or resource templates)',
  'tools-call-simple-text': 'calls the reference server’s test_simple_text tool',
  'tools-call-image': 'calls the reference server’s test_image_content tool',
  'tools-call-audio': 'calls the reference server’s test_audio_content tool',
  'tools-call-embedded-resource': 'calls the reference server’s test_embedded_resource tool',
  'tools-call-mixed-content': 'calls the reference server’s test_multiple_content_types tool',
  'tools-call-with-logging': 'needs logging and the reference server’s logging tool',
  'tools-call-error': 'calls the reference server’s test_error_handling tool',
  'tools-call-with-progress': 'calls the reference server’s test_tool_with_progress tool',
  'tools-call-sampling': 'needs sampling (the server never asks the client for a completion)',
  'tools-call-elicitation': 'needs elicitation (the server never asks the user through the client)',
  'json-schema-2020-12': 'looks for the reference server’s json_schema_2020_12_tool',
  'elicitation-sep1034-defaults': 'needs elicitation',
  'elicitation-sep1330-enums': 'needs elicitation',
  'server-sse-polling': 'needs sessions and SSE streams; /mcp is stateless JSON (and test_reconnection)',
  'server-sse-multiple-streams': 'needs sessions and GET streams; /mcp is stateless (GET is 405)',
  'resources-list': 'no resources capability',
  'resources-read-text': 'no resources capability',
  'resources-read-binary': 'no resources capability',
  'resources-templates-read': 'no resources capability',
  'resources-subscribe': 'no resources capability',
  'resources-unsubscribe': 'no resources capability',
  'prompts-list': 'no prompts capability',
  'prompts-get-simple': 'no prompts capability',
  'prompts-get-with-args': 'no prompts capability',
  'prompts-get-embedded-resource': 'no prompts capability',
  'prompts-get-with-image': 'no prompts capability',
};

describe('the official MCP conformance suite against /mcp', () => {
  let server: TestServer;
  let proxy: BearerProxy;
  let url: string;

  beforeAll(async () => {
    expect(conformanceInstalled(), `${NODE_22} is missing: run npm ci --prefix tools/mcp-conformance`).toBe(
      true,
    );
    // The server listens on 127.0.0.2; the proxy holds 127.0.0.1 on the same port and adds the
    // bearer token, so the suite's Host and Origin name the server's real port.
    server = await startTestServer({ listenHost: '127.0.0.2' });
    const port = Number(new URL(server.url).port);
    const { token } = await server.app.diosc.connections.createMcp(server.accountId, {
      displayName: 'MCP conformance suite',
      grant: [{ collection: 'notes', functions: ['items_list', 'item_read', 'item_write', 'item_delete'] }],
      provenance: 'test',
    });
    proxy = await startBearerProxy({
      listen: { host: '127.0.0.1', port },
      target: { host: '127.0.0.2', port },
      token,
    });
    url = `http://127.0.0.1:${port}/mcp`;
  }, 60_000);

  afterAll(async () => {
    await proxy?.close();
    await server?.close();
  });

  it('sorts every server scenario of the installed suite into applicable or not (with a reason)', async () => {
    const known = await serverScenarios();
    expect(known.length).toBeGreaterThan(0);
    expect(known.filter((name) => !APPLICABLE.includes(name) && !(name in NOT_APPLICABLE))).toEqual([]);
    expect(APPLICABLE.filter((name) => !known.includes(name))).toEqual([]);
  });

  for (const scenario of APPLICABLE) {
    it(`passes ${scenario}`, async () => {
      const run = await runScenario(url, scenario);
      const failed = run.checks.filter((check) => check.status === 'FAILURE');
      expect(failed, run.output).toEqual([]);
      expect(run.checks.filter((check) => check.status === 'SUCCESS').length, run.output).toBeGreaterThan(0);
      expect(run.exitCode, run.output).toBe(0);
    }, 120_000);
  }
});
