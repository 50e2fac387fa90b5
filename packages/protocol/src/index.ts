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
export type { ErrorCode } from './errors/codes.js';
export { ERROR_CODES, errorCodes, isErrorCode } from './errors/codes.js';
export type { DioscErrorOptions, WireError } from './errors/diosc-error.js';
export { DioscError, plainText } from './errors/diosc-error.js';
export type { LocalErrorCode } from './errors/local-codes.js';
export { isLocalErrorCode, LOCAL_ERROR_CODES, localErrorCodes } from './errors/local-codes.js';
export { LocalError } from './errors/local-error.js';
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
  ReviewEffects,
  ReviewReceipt,
  SessionView,
  UsageView,
} from './owner-api/wire.js';
export { CALL_CHANNELS } from './owner-api/wire.js';
export type { ToolResult } from './results/tool-result.js';
export { toolErrorResult, toolResult } from './results/tool-result.js';
