import { AG_UI_RUN_SCHEMA } from './ag-ui-run.js';
import { CLIENT_TOOL_NAME_PATTERN, PAGE_LIMITS } from './page.js';

/**
 * JSON Schemas of every hub request body. Unknown fields are refused at every depth
 * (`additionalProperties: false`); the hub validates with these before it reads anything.
 */
const ID = { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' } as const;
const SEVERITY = { enum: ['low', 'medium', 'high'] } as const;

export const SNAPSHOT_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['url', 'title'],
  properties: {
    url: { type: 'string', maxLength: 2_048 },
    title: { type: 'string', maxLength: 512 },
    description: { type: 'string', maxLength: PAGE_LIMITS.descriptionMaxChars },
    content: { type: 'string', maxLength: PAGE_LIMITS.snapshotContentMaxChars },
    data: {},
  },
} as const;

export const INTENT_METADATA_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'description', 'schema'],
  properties: {
    name: { type: 'string', pattern: CLIENT_TOOL_NAME_PATTERN },
    description: { type: 'string', minLength: 1, maxLength: PAGE_LIMITS.descriptionMaxChars },
    schema: { type: 'object' },
    approval: {
      type: 'object',
      additionalProperties: false,
      required: ['severity'],
      properties: { severity: SEVERITY },
    },
  },
} as const;

export const REGISTRY_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['tools', 'intents'],
  properties: {
    tools: {
      type: 'array',
      maxItems: PAGE_LIMITS.maxTools,
      uniqueItems: true,
      items: { type: 'string', pattern: CLIENT_TOOL_NAME_PATTERN },
    },
    intents: { type: 'array', maxItems: PAGE_LIMITS.maxIntents, items: INTENT_METADATA_SCHEMA },
  },
} as const;

export const OPEN_SESSION_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['publishableKey'],
  properties: {
    publishableKey: { type: 'string', pattern: '^pk_[A-Za-z0-9_-]{8,128}$' },
    identity: { type: 'string', minLength: 1, maxLength: 4_096 },
  },
} as const;

export const SEND_MESSAGE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['text'],
  properties: {
    text: { type: 'string', maxLength: 16_000 },
    snapshot: SNAPSHOT_SCHEMA,
    registry: REGISTRY_SCHEMA,
    attachments: { type: 'array', maxItems: 10, uniqueItems: true, items: ID },
  },
} as const;

const DECISION_REPORT_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['decision'],
  properties: {
    decision: { enum: ['approve', 'edit', 'reject'] },
    changed: { type: 'array', maxItems: 64, items: { type: 'string', maxLength: 128 } },
    reason: { type: 'string', maxLength: 1_000 },
  },
} as const;

const FILE_DESCRIPTOR_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['fileId', 'filename', 'format', 'downloadUrl', 'sizeBytes'],
  properties: {
    fileId: ID,
    filename: { type: 'string', maxLength: 255 },
    format: { type: 'string', maxLength: 32 },
    downloadUrl: { type: 'string', maxLength: 512 },
    sizeBytes: { type: 'integer', minimum: 0 },
  },
} as const;

export const INTERRUPT_ANSWER_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    result: {},
    error: { type: 'string', maxLength: 4_000 },
    uncertain: { type: 'boolean' },
    snapshot: SNAPSHOT_SCHEMA,
    registry: REGISTRY_SCHEMA,
    file: FILE_DESCRIPTOR_SCHEMA,
    decision: DECISION_REPORT_SCHEMA,
  },
} as const;

export const CONSENSUS_DECISION_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['decision', 'argsDigest'],
  properties: {
    decision: { enum: ['approve', 'edit', 'reject'] },
    argsDigest: { type: 'string', pattern: '^[0-9a-f]{64}$' },
    args: { type: 'object' },
    reason: { type: 'string', maxLength: 1_000 },
  },
} as const;

export const EMPTY_BODY_SCHEMA = { type: 'object', additionalProperties: false, properties: {} } as const;

export const HUB_BODY_SCHEMAS = {
  emptyBody: EMPTY_BODY_SCHEMA,
  openSession: OPEN_SESSION_SCHEMA,
  sendMessage: SEND_MESSAGE_SCHEMA,
  interruptAnswer: INTERRUPT_ANSWER_SCHEMA,
  consensusDecision: CONSENSUS_DECISION_SCHEMA,
  agUiRun: AG_UI_RUN_SCHEMA,
} as const;

export type HubBodyName = keyof typeof HUB_BODY_SCHEMAS;
