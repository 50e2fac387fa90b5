import { Writable } from 'node:stream';
import { afterEach, expect, it } from 'vitest';
import { type FakeUpstream, startFakeUpstream } from '../owner/assistants/fake-upstream.js';
import { type AdminHarness, startAdmin } from '../owner/assistants/support.js';
import {
  type ChatCompletionsServer,
  startChatCompletionsServer,
  streamedReply,
} from './model/chat-completions-server.js';
import { type HostileMcpServer, startHostileMcpServer } from './support/hostile-mcp-server.js';
import { describeOnDialects } from './support/hub-server.js';

/**
 * Text from outside the hub — an MCP server's results and errors, a provider's error — passes one
 * redactor that knows every secret the hub holds for the assistant. Attacker's side: servers that
 * echo the secret they were sent, raw and encoded; the secret must reach none of the model's
 * prompt, the visitor's events, the owner's transcript or the server log.
 */
const MCP_TOKEN = 'mcp-tok+en/Hostile0123456789';
const FAILING_TOKEN = 'mcp-other+tok/en9876543210';
// Not key-shaped (no `sk-`, under 32 characters): only the redactor, knowing it, can remove it.
const PROVIDER_KEY = 'Pr0viderKeyNotShaped77';
const IDENTITY_SECRET = 'identity-secret-0123456789abcdef0123456789';

function formsOf(secret: string): string[] {
  return [
    secret,
    encodeURIComponent(secret),
    Buffer.from(`Bearer ${secret}`).toString('base64'),
    Buffer.from(`Bearer ${secret}`).toString('base64').replace(/=+$/, ''),
  ];
}

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, logger: { stream, level: 'trace' } };
}

let admin: AdminHarness | undefined;
const servers: (HostileMcpServer | FakeUpstream | ChatCompletionsServer)[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
  await admin?.server.close();
  admin = undefined;
});

describeOnDialects('secrets echoed by outside servers', () => {
  it('an MCP server’s echoed token reaches no prompt, event, transcript or log line — result, tool error, protocol error, HTTP error body, failed connect', async () => {
    const log = capture();
    const tools = ['echo_result', 'echo_tool_error', 'echo_protocol_error', 'echo_http_error'];
    admin = await startAdmin({
      hub: { fetchPrivate: true },
      logger: log.logger,
      script: (call) =>
        call.index === 0
          ? { toolCalls: tools.map((tool) => ({ toolName: `hostile__${tool}`, input: {} })) }
          : { text: 'Done.' },
    });
    const hostile = await startHostileMcpServer();
    // A server that refuses the connection itself with the token in its error body.
    const refusing = await startHostileMcpServer({
      onRequest: (request, response) => {
        response
          .writeHead(403, { 'content-type': 'text/plain' })
          .end(`no entry for ${request.headers.authorization} (${MCP_TOKEN.length})`);
        return false;
      },
    });
    servers.push(hostile, refusing);
    const assistant = await admin.server.createAssistant({
      name: 'Hostile MCP',
      model: { provider: 'scripted', id: 'test' },
      allowedOrigins: [admin.server.pageOrigin],
      serverTools: {
        mcpServers: [
          { name: 'hostile', url: hostile.url },
          { name: 'refusing', url: refusing.url },
        ],
      },
      secrets: {
        mcpTokens: { hostile: MCP_TOKEN, refusing: FAILING_TOKEN },
        providerKey: PROVIDER_KEY,
        identitySecret: IDENTITY_SECRET,
      },
    });
    const { client, conversation, stream } = await admin.server.visit(assistant);
    await client.send(conversation, { text: 'Echo everything' });
    await stream.until('turn.done');

    // The servers were sent their tokens, and echoed them back.
    expect(hostile.requests.some((request) => request.authorization === `Bearer ${MCP_TOKEN}`)).toBe(true);
    expect(refusing.requests.some((request) => request.authorization === `Bearer ${FAILING_TOKEN}`)).toBe(
      true,
    );
    const finished = stream.ofType('tool.finished');
    expect(finished.map((event) => [event.tool, event.ok]).sort()).toEqual([
      ['hostile__echo_http_error', false],
      ['hostile__echo_protocol_error', false],
      ['hostile__echo_result', true],
      ['hostile__echo_tool_error', false],
    ]);

    const prompt = JSON.stringify(admin.server.model.calls[1]!.prompt);
    const transcript = await admin.api(`/${assistant.id}/conversations/${conversation}`);
    expect(transcript.status).toBe(200);
    const logText = log.lines.join('');
    // What each place saw is there, with the token taken out.
    expect(prompt).toContain(
      '"echoed":"token [redacted] | url-encoded [redacted] | header in base64 [redacted]"',
    );
    expect(prompt).toContain('tool failure for token [redacted]');
    expect(prompt).toContain('protocol failure for token [redacted]');
    expect(prompt).toContain('upstream broke for token [redacted]');
    expect(JSON.stringify(transcript.body)).toContain('[redacted]');
    expect(logText).toContain('MCP server unavailable');
    expect(logText).toContain('no entry for [redacted]');
    const places = {
      prompt,
      events: JSON.stringify(stream.events),
      transcript: JSON.stringify(transcript.body),
      log: logText,
    };
    for (const [place, text] of Object.entries(places)) {
      for (const secret of [MCP_TOKEN, FAILING_TOKEN, PROVIDER_KEY, IDENTITY_SECRET]) {
        for (const form of formsOf(secret)) expect(text, `${place}: ${form}`).not.toContain(form);
      }
    }
    stream.close();
  });

  it('a provider’s error echoing its key reaches no event, turn record, transcript or log line', async () => {
    const log = capture();
    admin = await startAdmin({ hub: { fetchPrivate: true }, logger: log.logger });
    const upstream = await startFakeUpstream(() => ({
      status: 401,
      body: JSON.stringify({
        error: {
          message: `Invalid key "${PROVIDER_KEY}" (also ${encodeURIComponent(PROVIDER_KEY)}, ${Buffer.from(`Bearer ${PROVIDER_KEY}`).toString('base64')}).`,
          type: 'invalid_request_error',
        },
      }),
    }));
    servers.push(upstream);
    const assistant = await admin.server.createAssistant({
      name: 'Echoing provider',
      model: { provider: 'openai-compatible', id: 'llama3.2', baseUrl: `${upstream.url}/v1` },
      allowedOrigins: [admin.server.pageOrigin],
      secrets: { providerKey: PROVIDER_KEY, identitySecret: IDENTITY_SECRET },
    });
    const { client, conversation, stream } = await admin.server.visit(assistant);
    await client.send(conversation, { text: 'hello' });
    const failed = await stream.until('turn.failed');
    expect(upstream.requests[0]?.headers.authorization).toBe(`Bearer ${PROVIDER_KEY}`);
    expect(failed.error.code).toBe('model_failed');
    expect(failed.error.message).toContain('Invalid key "[redacted]"');

    const transcript = await admin.api(`/${assistant.id}/conversations/${conversation}`);
    const turns = await admin.server.store.db.selectFrom('hub_turns').selectAll().execute();
    const places = {
      events: JSON.stringify(stream.events),
      transcript: JSON.stringify(transcript.body),
      turns: JSON.stringify(turns),
      log: log.lines.join(''),
    };
    for (const [place, text] of Object.entries(places)) {
      for (const form of formsOf(PROVIDER_KEY)) expect(text, `${place}: ${form}`).not.toContain(form);
    }
    stream.close();
  });

  it('a provider that streams its key back as text, split across chunks, reaches no delta, message, transcript or log line', async () => {
    const log = capture();
    admin = await startAdmin({ hub: { fetchPrivate: true }, logger: log.logger });
    const encoded = Buffer.from(`Bearer ${PROVIDER_KEY}`).toString('base64');
    const upstream = await startChatCompletionsServer([
      {
        chunks: streamedReply('llama3.2', {
          text: [
            'Your key is ',
            PROVIDER_KEY.slice(0, 5),
            PROVIDER_KEY.slice(5, 12),
            `${PROVIDER_KEY.slice(12)}, or `,
            encoded.slice(0, 10),
            `${encoded.slice(10)}. Bye.`,
          ],
        }),
      },
    ]);
    servers.push(upstream);
    const assistant = await admin.server.createAssistant({
      name: 'Echoing model',
      model: { provider: 'openai-compatible', id: 'llama3.2', baseUrl: upstream.baseUrl },
      allowedOrigins: [admin.server.pageOrigin],
      secrets: { providerKey: PROVIDER_KEY },
    });
    const { client, conversation, stream } = await admin.server.visit(assistant);
    await client.send(conversation, { text: 'hello' });
    const { message } = await stream.until('message');
    await stream.until('turn.done');
    expect(upstream.requests[0]?.headers.authorization).toBe(`Bearer ${PROVIDER_KEY}`);
    const deltas = stream
      .ofType('text.delta')
      .map((event) => event.delta)
      .join('');
    expect(deltas).toBe('Your key is [redacted], or [redacted]. Bye.');
    expect(message.text).toBe(deltas);

    const transcript = await admin.api(`/${assistant.id}/conversations/${conversation}`);
    const places = {
      events: JSON.stringify(stream.events),
      transcript: JSON.stringify(transcript.body),
      log: log.lines.join(''),
    };
    for (const [place, text] of Object.entries(places)) {
      for (const form of formsOf(PROVIDER_KEY)) expect(text, `${place}: ${form}`).not.toContain(form);
    }
    stream.close();
  });
});
