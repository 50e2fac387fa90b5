import type {
  AssistantDeletion,
  AssistantListView,
  AssistantUsageView,
  AssistantView,
  AssistantWrite,
  AuditKind,
  AuditOutcome,
  AuditPage,
  ConversationDeletion,
  ConversationPage,
  EmbedView,
  McpCheckRequest,
  McpCheckResult,
  SitemapImportRequest,
  SitemapImportResult,
  SitemapRouteView,
  SitemapTestResult,
  TestConnectionRequest,
  TestConnectionResult,
  ToolsPreviewRequest,
  ToolsPreviewResult,
  TranscriptView,
} from '@diosc/protocol';
import type { Http } from '../api/http.js';

const enc = encodeURIComponent;

/** The audit view's filter: what `GET /assistants/:id/audit` takes (`since` as an ISO date or time). */
export interface AuditFilter {
  kind?: AuditKind;
  outcome?: AuditOutcome;
  since?: string;
  /** The id of the last record shown: the next page starts after it. */
  before?: string;
}
const one = (id: string) => `/assistants/${enc(id)}`;

/** The owner API's assistant routes (docs/api/assistants.md), as the Assistants area calls them. */
export function createAssistantsApi(http: Http) {
  return {
    list: () => http<AssistantListView>('GET', '/assistants'),
    get: async (id: string) => (await http<{ assistant: AssistantView }>('GET', one(id))).assistant,
    create: async (input: AssistantWrite & { name: string }) =>
      (await http<{ assistant: AssistantView }>('POST', '/assistants', input)).assistant,
    update: async (id: string, input: AssistantWrite) =>
      (await http<{ assistant: AssistantView }>('PATCH', one(id), input)).assistant,
    remove: (id: string) => http<AssistantDeletion>('DELETE', one(id)),
    testConnection: (id: string, input: TestConnectionRequest = {}) =>
      http<TestConnectionResult>('POST', `${one(id)}/test-connection`, input),
    previewTools: (id: string, input: ToolsPreviewRequest) =>
      http<ToolsPreviewResult>('POST', `${one(id)}/tools/preview`, input),
    checkMcp: (id: string, input: McpCheckRequest) =>
      http<McpCheckResult>('POST', `${one(id)}/mcp-check`, input),
    testSitemap: (id: string, path: string, routes?: SitemapRouteView[]) =>
      http<SitemapTestResult>('POST', `${one(id)}/sitemap/test`, { path, ...(routes ? { routes } : {}) }),
    importSitemap: (id: string, input: SitemapImportRequest) =>
      http<SitemapImportResult>('POST', `${one(id)}/sitemap/import`, input),
    embed: (id: string) => http<EmbedView>('GET', `${one(id)}/embed`),
    conversations: (id: string, cursor?: string) =>
      http<ConversationPage>(
        'GET',
        `${one(id)}/conversations?limit=50${cursor ? `&cursor=${enc(cursor)}` : ''}`,
      ),
    transcript: (id: string, conversationId: string) =>
      http<TranscriptView>('GET', `${one(id)}/conversations/${enc(conversationId)}`),
    deleteConversation: (id: string, conversationId: string) =>
      http<ConversationDeletion>('DELETE', `${one(id)}/conversations/${enc(conversationId)}`),
    usage: (id: string, days = 14) => http<AssistantUsageView>('GET', `${one(id)}/usage?days=${days}`),
    audit: (id: string, filter: AuditFilter = {}, limit = 100) => {
      const query = new URLSearchParams({ limit: String(limit) });
      for (const [name, value] of Object.entries(filter)) if (value) query.set(name, value);
      return http<AuditPage>('GET', `${one(id)}/audit?${query}`);
    },
  };
}

export type AssistantsApi = ReturnType<typeof createAssistantsApi>;
