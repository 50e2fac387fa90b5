import {
  CONTENT_MAX_CHARS,
  collectionId,
  collectionRow,
  cursor,
  type FunctionName,
  itemFull,
  itemId,
  itemSummary,
  limit,
  nextCursor,
  requestId,
  version,
} from './schemas.js';

/** What an operation does to the world; transports map these to their own annotation vocabularies. */
export interface OperationHints {
  readOnly: boolean;
  consequential: boolean;
  destructive: boolean;
  idempotent: boolean;
  untrustedContent: boolean;
}

export interface OperationDefinition {
  name: FunctionName;
  title: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema: Record<string, unknown>;
  hints: OperationHints;
}

const reads: OperationHints = {
  readOnly: true,
  consequential: false,
  destructive: false,
  idempotent: true,
  untrustedContent: true,
};

/** The five account operations. The single source of their names, descriptions and schemas. */
export const OPERATIONS: readonly OperationDefinition[] = [
  {
    name: 'collections_list',
    title: 'List collections',
    description:
      'List the collections this caller may use (inbox, hosted storage, external mirrors), with the functions allowed on each.',
    inputSchema: {
      type: 'object',
      additionalProperties: false,
      properties: { cursor, limit },
    },
    outputSchema: {
      type: 'object',
      additionalProperties: false,
      required: ['collections', 'nextCursor'],
      properties: { collections: { type: 'array', items: collectionRow }, nextCursor },
    },
    hints: reads,
  },
  {
    name: 'items_list',
    title: 'List items',
    description: 'List the items of one collection, newest change first, one bounded page at a time.',
    inputSchema: {
      type: 'object',
      additionalProperties: false,
      required: ['collection'],
      properties: { collection: collectionId, cursor, limit },
    },
    outputSchema: {
      type: 'object',
      additionalProperties: false,
      required: ['collection', 'items', 'nextCursor'],
      properties: {
        collection: { type: 'string' },
        items: { type: 'array', items: itemSummary },
        nextCursor,
      },
    },
    hints: reads,
  },
  {
    name: 'item_read',
    title: 'Read an item',
    description: 'Read one item with its content (cut to a bound; `truncated` says so) and metadata.',
    inputSchema: {
      type: 'object',
      additionalProperties: false,
      required: ['collection', 'item'],
      properties: { collection: collectionId, item: itemId },
    },
    outputSchema: {
      type: 'object',
      additionalProperties: false,
      required: ['collection', 'item'],
      properties: { collection: { type: 'string' }, item: itemFull },
    },
    hints: reads,
  },
  {
    name: 'item_write',
    title: 'Write an item',
    description:
      'Change one item; give exactly one of `content` or `metadata`. Inbox: edit message metadata only (read, flagged, archived, labels). Storage: create with ifNoneMatch "*" or replace with ifMatch set to the current version. External collections are read-only.',
    inputSchema: {
      type: 'object',
      additionalProperties: false,
      required: ['collection', 'item', 'requestId'],
      properties: {
        collection: collectionId,
        item: itemId,
        requestId,
        ifMatch: { ...version, description: 'Apply only if the item is at this version.' },
        ifNoneMatch: { type: 'string', const: '*', description: 'Create only if the item does not exist.' },
        content: {
          type: 'object',
          additionalProperties: false,
          required: ['body'],
          description: 'New content of a storage item.',
          properties: {
            title: { type: 'string', minLength: 1, maxLength: 200 },
            body: { type: 'string', maxLength: CONTENT_MAX_CHARS },
            contentType: { type: 'string', enum: ['text/plain', 'text/markdown', 'application/json'] },
          },
        },
        metadata: {
          type: 'object',
          additionalProperties: false,
          minProperties: 1,
          description: 'Message metadata changes of an inbox item.',
          properties: {
            read: { type: 'boolean' },
            flagged: { type: 'boolean' },
            archived: { type: 'boolean' },
            labels: {
              type: 'array',
              maxItems: 20,
              uniqueItems: true,
              items: { type: 'string', pattern: '^[A-Za-z0-9 _.-]{1,40}$' },
            },
          },
        },
      },
    },
    outputSchema: {
      type: 'object',
      additionalProperties: false,
      required: ['collection', 'item', 'created'],
      properties: { collection: { type: 'string' }, item: itemSummary, created: { type: 'boolean' } },
    },
    hints: {
      readOnly: false,
      consequential: true,
      destructive: true,
      idempotent: true,
      untrustedContent: false,
    },
  },
  {
    name: 'item_delete',
    title: 'Delete an item',
    description: 'Delete one storage item if it is still at the given version.',
    inputSchema: {
      type: 'object',
      additionalProperties: false,
      required: ['collection', 'item', 'requestId', 'ifMatch'],
      properties: {
        collection: collectionId,
        item: itemId,
        requestId,
        ifMatch: { ...version, description: 'Delete only if the item is at this version.' },
      },
    },
    outputSchema: {
      type: 'object',
      additionalProperties: false,
      required: ['collection', 'item', 'deleted'],
      properties: { collection: { type: 'string' }, item: { type: 'string' }, deleted: { type: 'boolean' } },
    },
    hints: {
      readOnly: false,
      consequential: true,
      destructive: true,
      idempotent: true,
      untrustedContent: false,
    },
  },
];

export function findOperation(name: string): OperationDefinition | undefined {
  return OPERATIONS.find((operation) => operation.name === name);
}
