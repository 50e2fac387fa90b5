import type { CollectionFunction, CollectionKind, FunctionName } from './schemas.js';

/** TypeScript views of the catalog's JSON Schemas (the schemas are the contract; these follow them). */
export interface MessageMetadata {
  from?: string;
  receivedAt?: string;
  read?: boolean;
  flagged?: boolean;
  archived?: boolean;
  labels?: string[];
}

export interface ItemSummary {
  id: string;
  title: string;
  version: string;
  updatedAt: string;
  sizeBytes: number;
  metadata?: MessageMetadata;
}

export interface ItemFull extends ItemSummary {
  contentType: string;
  content: string;
  truncated: boolean;
}

export interface CollectionRow {
  id: string;
  kind: CollectionKind;
  title: string;
  itemCount: number;
  functions: CollectionFunction[];
  /** Present when the provider source of an external collection has been disconnected (no functions then). */
  state?: 'disconnected';
}

export interface OperationInputs {
  collections_list: { cursor?: string; limit?: number };
  items_list: { collection: string; cursor?: string; limit?: number };
  item_read: { collection: string; item: string };
  item_write: {
    collection: string;
    item: string;
    requestId: string;
    ifMatch?: string;
    ifNoneMatch?: '*';
    content?: {
      title?: string;
      body: string;
      contentType?: 'text/plain' | 'text/markdown' | 'application/json';
    };
    metadata?: { read?: boolean; flagged?: boolean; archived?: boolean; labels?: string[] };
  };
  item_delete: { collection: string; item: string; requestId: string; ifMatch: string };
}

export interface OperationOutputs {
  collections_list: { collections: CollectionRow[]; nextCursor: string | null };
  items_list: { collection: string; items: ItemSummary[]; nextCursor: string | null };
  item_read: { collection: string; item: ItemFull };
  item_write: { collection: string; item: ItemSummary; created: boolean };
  item_delete: { collection: string; item: string; deleted: boolean };
}

/** The functions that change data (`MUTATING_FUNCTIONS` lists them from the catalog's hints). */
export type MutatingFunction = 'item_write' | 'item_delete';

/** A call whose input has passed the catalog: its name and its input's type go together. */
export type ValidCall<N extends FunctionName = FunctionName> = {
  [K in N]: { name: K; input: OperationInputs[K] };
}[N];
