export type { AssistantAdminBodyName } from './assistant-admin/schemas.js';
export {
  ASSISTANT_ADMIN_BODY_SCHEMAS,
  ASSISTANT_FIELD_SCHEMAS,
  ASSISTANT_LIMIT_RANGES,
  MCP_SERVER_NAME_PATTERN,
  ORIGIN_PATTERN,
  SERVER_TOOL_NAME_PATTERN,
} from './assistant-admin/schemas.js';
export type {
  AssistantDeletion,
  AssistantFilesSettings,
  AssistantGrantEntry,
  AssistantLimits,
  AssistantListView,
  AssistantModelSpec,
  AssistantUsageView,
  AssistantView,
  AssistantWrite,
  CheckOutcome,
  ConversationDeletion,
  ConversationPage,
  ConversationRowView,
  ConversationStatus,
  DeclaredBrowserTool,
  EmbedView,
  GenerateFileFormat,
  GenerateFileSettings,
  McpCheckRequest,
  McpCheckResult,
  ModelProvider,
  PreviewTool,
  SecretPresence,
  SitemapImportRequest,
  SitemapImportResult,
  SitemapRouteView,
  SitemapTestRequest,
  SitemapTestResult,
  TestConnectionRequest,
  TestConnectionResult,
  ToolsPreviewRequest,
  ToolsPreviewResult,
  TranscriptMessage,
  TranscriptToolCall,
  TranscriptTurn,
  TranscriptView,
} from './assistant-admin/wire.js';
export { GENERATE_FILE_FORMATS, MODEL_PROVIDERS, VISITOR_UPLOAD_TYPES } from './assistant-admin/wire.js';
export type { AuditActorKind, AuditKind, AuditOutcome, AuditPage, AuditRecordView } from './audit/wire.js';
export { AUDIT_ACTOR_KINDS, AUDIT_KINDS, AUDIT_OUTCOMES, AUDIT_PAGE_MAX } from './audit/wire.js';
export type { McpToolAnnotations, ToolDescriptor } from './catalog/descriptors.js';
export { catalogDescriptors, descriptorsFor, findDescriptor } from './catalog/descriptors.js';
export { collectionOf, requestIdOf } from './catalog/identifiers.js';
export { isMutatingCall, isMutatingFunction, MUTATING_FUNCTIONS } from './catalog/mutations.js';
export type { OperationDefinition, OperationHints } from './catalog/operations.js';
export { findOperation, OPERATIONS } from './catalog/operations.js';
export type { CollectionFunction, CollectionKind, FunctionName } from './catalog/schemas.js';
export {
  COLLECTION_FUNCTIONS,
  COLLECTION_KINDS,
  CONTENT_MAX_CHARS,
  FUNCTION_NAMES,
  ID_PATTERN,
  PAGE_LIMIT_MAX,
  REQUEST_ID_PATTERN,
} from './catalog/schemas.js';
export type {
  CollectionRow,
  ItemFull,
  ItemSummary,
  MessageMetadata,
  MutatingFunction,
  OperationInputs,
  OperationOutputs,
  ValidCall,
} from './catalog/types.js';
export { CodedError } from './errors/coded-error.js';
export type { ErrorCode } from './errors/codes.js';
export { ERROR_CODES, errorCodes, isErrorCode } from './errors/codes.js';
export type { DioscErrorOptions, WireError } from './errors/diosc-error.js';
export { DioscError, plainText } from './errors/diosc-error.js';
export type { LocalErrorCode } from './errors/local-codes.js';
export { isLocalErrorCode, LOCAL_ERROR_CODES, localErrorCodes } from './errors/local-codes.js';
export { LocalError } from './errors/local-error.js';
export type { AgUiMessage, AgUiRunBody } from './hub-api/ag-ui-run.js';
export { AG_UI_LIMITS, AG_UI_RUN_MAX_BYTES, AG_UI_RUN_SCHEMA } from './hub-api/ag-ui-run.js';
export { answerBytesProblem } from './hub-api/answer-bytes.js';
export { answerOutcome } from './hub-api/answer-outcome.js';
export type {
  ConsensusDecision,
  ConsensusOutcome,
  ConsensusRequest,
  IntentDecisionReport,
} from './hub-api/consensus.js';
export { DECLINED_BY_USER, declinedMessage } from './hub-api/consensus.js';
export type {
  ConversationMessage,
  HubEvent,
  HubEventBody,
  HubEventType,
  ToolActivity,
  ToolLocation,
} from './hub-api/events.js';
export type { FileDescriptor } from './hub-api/files.js';
export { FILE_UPLOAD_PARTS } from './hub-api/files.js';
export type { BrowserInterrupt, InterruptAnswer } from './hub-api/interrupts.js';
export { INTERRUPT_ANSWER_MAX_BYTES } from './hub-api/interrupts.js';
export type { ApprovalSeverity, IntentMetadata, PageRegistry, PageSnapshot } from './hub-api/page.js';
export {
  CLIENT_TOOL_NAME_PATTERN,
  INTENT_TOOL_PREFIX,
  intentToolName,
  PAGE_LIMITS,
} from './hub-api/page.js';
export type {
  HubAcknowledgement,
  HubReplies,
  HubRoute,
  HubRouteBody,
  HubRouteName,
  HubRouteReply,
  HubRouteWithId,
} from './hub-api/routes.js';
export { HUB_API_PREFIX, HUB_ROUTES, hubPath, matchHubRoute } from './hub-api/routes.js';
export type { HubBodyName } from './hub-api/schemas.js';
export { HUB_BODY_SCHEMAS } from './hub-api/schemas.js';
export type {
  AssistantPublicView,
  ConversationSummary,
  ConversationView,
  OpenSessionRequest,
  SendMessageRequest,
  SendMessageResponse,
  TurnStatus,
  TurnView,
  VisitorSessionView,
} from './hub-api/sessions.js';
export type { SseMessage } from './hub-api/sse-parser.js';
export { createSseParser } from './hub-api/sse-parser.js';
export { isObject } from './is-object.js';
export { canonicalJson } from './json/canonical-json.js';
export { deepFreeze } from './json/deep-freeze.js';
export { isPlainObject } from './json/plain-object.js';
export type {
  BrowserAccessView,
  CallChannel,
  ConnectionTransport,
  ConnectionView,
  DescriptorsView,
  GrantEntry,
  PrepareAnswer,
  ReviewEffects,
  ReviewReceipt,
  SessionStatus,
  SessionView,
  SourceDisconnection,
  UsageView,
} from './owner-api/wire.js';
export { CALL_CHANNELS } from './owner-api/wire.js';
export type { ToolResult } from './results/tool-result.js';
export { toolErrorResult, toolResult } from './results/tool-result.js';
