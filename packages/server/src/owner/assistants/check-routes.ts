import { DioscError, type ToolsPreviewResult } from '@diosc/protocol';
import { validateAssistantAdminBody } from '@diosc/protocol/validators';
import type { FastifyInstance } from 'fastify';
import type { AssistantConfig } from '../../hub/assistants/assistant-config.js';
import { checkAssistantConfig } from '../../hub/assistants/assistants.js';
import type { ModelSpec } from '../../hub/model/model-spec.js';
import { checkMcpServer } from '../../hub/server-tools/mcp-check.js';
import { validateRoutes } from '../../hub/sitemap/sitemap.js';
import { previewTools } from '../../hub/turns/tools-preview.js';
import { hubOf, type NetworkBudget, ownedAssistant } from './assistant-scope.js';

function sameEndpoint(a: ModelSpec, b: ModelSpec): boolean {
  return a.provider === b.provider && (a.baseUrl ?? '') === (b.baseUrl ?? '');
}

/** Test connection, the tools preview and the MCP "list tools" check. */
export function registerCheckRoutes(app: FastifyInstance, spend: NetworkBudget): void {
  app.post('/test-connection', async (request) => {
    const body = validateAssistantAdminBody('testConnection', request.body);
    if (!body.model) throw new DioscError('invalid_input', 'body must have required property model.');
    spend(request);
    return hubOf(app).services.testModel(body.model, body.providerKey);
  });

  app.post('/:id/test-connection', async (request) => {
    const body = validateAssistantAdminBody('testConnection', request.body);
    const assistant = await ownedAssistant(app, request);
    spend(request);
    const { services } = hubOf(app);
    const stored = assistant.config.model;
    const spec = body.model ?? stored;
    // The stored key goes only where it was stored for: the same provider at the same base URL.
    const key =
      body.providerKey ??
      (sameEndpoint(spec, stored)
        ? (await services.assistants.secretsOf(assistant.id)).providerKey
        : undefined);
    return services.testModel(spec, key);
  });

  app.post('/:id/tools/preview', async (request): Promise<ToolsPreviewResult> => {
    const body = validateAssistantAdminBody('toolsPreview', request.body);
    const assistant = await ownedAssistant(app, request);
    const draft: AssistantConfig = {
      ...assistant.config,
      browserTools: body.browserTools ?? assistant.config.browserTools,
      sitemap: body.sitemap ? validateRoutes(body.sitemap) : assistant.config.sitemap,
      serverTools: {
        ...assistant.config.serverTools,
        consensus: body.consensus ?? assistant.config.serverTools.consensus,
      },
    };
    checkAssistantConfig(draft);
    // Only a preview that connects to MCP servers reaches the network and counts.
    if (body.connectMcp === true) spend(request);
    const set = await hubOf(app).services.serverToolSetFor(assistant, { mcp: body.connectMcp === true });
    try {
      return {
        ...previewTools(draft, set.tools, body.pageTools),
        mcpErrors: (set.failures ?? []).map(({ server, message }) => ({ server, message })),
      };
    } finally {
      await set.close();
    }
  });

  app.post('/:id/mcp-check', async (request) => {
    const body = validateAssistantAdminBody('mcpCheck', request.body);
    const assistant = await ownedAssistant(app, request);
    const { services } = hubOf(app);
    if ((body.name === undefined) === (body.url === undefined))
      throw new DioscError('invalid_input', 'Give either the name of a saved server or a url.');
    if (body.name !== undefined && body.token !== undefined)
      throw new DioscError('invalid_input', 'A token goes with a url; a saved server uses its stored token.');
    let server: { name: string; url: string };
    let token = body.token;
    if (body.name !== undefined) {
      const saved = assistant.config.serverTools.mcpServers.find((entry) => entry.name === body.name);
      if (!saved) throw new DioscError('not_found', `This assistant has no MCP server "${body.name}".`);
      server = saved;
      token = (await services.assistants.secretsOf(assistant.id)).mcpTokens?.[saved.name];
    } else {
      server = { name: 'check', url: body.url! };
    }
    services.outboundFetch.check(server.url);
    spend(request);
    const result = await checkMcpServer(server, token, services.outboundFetch);
    // A refused address is a refusal of the request, as for a sitemap URL, not a failed check.
    if (!result.ok && result.error.code === 'fetch_refused')
      throw new DioscError('fetch_refused', result.error.message);
    return result;
  });
}
