export { createWebMcpAdapter } from './adapter.js';
export type {
  ActivityEntry,
  ActivityOutcome,
  AdapterState,
  AdapterStatus,
  Reviewer,
  ReviewRequest,
  RevokeReason,
  WebMcpAdapter,
  WebMcpAdapterOptions,
  WindowLike,
} from './adapter-types.js';
export { initialLifecycle, isLive, transition } from './lifecycle.js';
export type {
  LifecycleEffect,
  LifecycleEvent,
  LifecycleState,
  LifecycleStep,
  Named,
  RegistrationKey,
} from './lifecycle-types.js';
export type {
  DetectedModelContext,
  LegacyModelContextLike,
  ModelContextLike,
  ToolExecuteCallback,
  ToolExecuteOptions,
  WebMcpTool,
  WebMcpToolAnnotations,
} from './model-context.js';
export { detectModelContext } from './model-context.js';
export type {
  BrowserAccessView,
  DescriptorsView,
  GrantEntry,
  OwnerBrowserApi,
  ReviewEffects,
  ReviewReceipt,
  SessionView,
  ToolCall,
} from './owner-api-types.js';
export type { OwnerBrowserApiOptions } from './owner-browser-api.js';
export { createOwnerBrowserApi } from './owner-browser-api.js';
export type { OwnerRequest, OwnerRequestOptions } from './owner-request.js';
export { createOwnerRequest, TransportFailure } from './owner-request.js';
export type { Registration } from './registration.js';
export { RegistrationFailed, registerTools } from './registration.js';
export type { ToolResult } from './tool-result.js';
