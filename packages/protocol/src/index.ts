export type { McpToolAnnotations, ToolDescriptor } from './catalog/descriptors.js';
export { catalogDescriptors, descriptorsFor, findDescriptor } from './catalog/descriptors.js';
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
} from './catalog/types.js';
export type { ErrorCode } from './errors/codes.js';
export { ERROR_CODES, errorCodes, isErrorCode } from './errors/codes.js';
export type { DioscErrorOptions, WireError } from './errors/diosc-error.js';
export { DioscError, plainText } from './errors/diosc-error.js';
export type {
  BrowserAccessView,
  ConnectionView,
  DescriptorsView,
  GrantEntry,
  ReviewEffects,
  ReviewReceipt,
  SessionView,
  UsageView,
} from './owner-api/wire.js';
