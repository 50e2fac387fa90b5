/** Row types of the hub's file tables (same conventions as schema.ts: epoch ms, JSON as TEXT). */
export interface HubFilesTable {
  /** `fil_<uuid>`: random, so an id cannot be guessed from another. */
  id: string;
  assistant_id: string;
  conversation_id: string;
  /** The visitor who delivered the file (or whose turn generated it); the only one who may read it. */
  visitor_id: string;
  /** `upload`: from the page (a browser tool or the file picker); `generated`: by `generate_file`. */
  source: 'upload' | 'generated';
  /** The pending interrupt an upload answers, or null for a file the visitor attaches to a message. */
  interrupt_id: string | null;
  /** The `generate_file` call that wrote it, so a repeated call finds its file instead of a second. */
  tool_call_id: string | null;
  /** The sanitized name every descriptor and download uses. */
  filename: string;
  /** What the page sent, kept only as display text for the operator; never a path, never served. */
  original_name: string;
  /** The stored type, decided from the content and the declared type. */
  media_type: string;
  /** Short name of the stored type (`png`, `csv`, …). */
  format: string;
  size_bytes: number;
  sha256: string;
  chunk_count: number;
  /**
   * `writing` while chunks stream in (invisible to every reader), `complete` once all chunks are
   * committed, `expired` once the pruner removed the bytes (the chip stays; downloads say so).
   */
  status: 'writing' | 'complete' | 'expired';
  created_at: number;
  expires_at: number;
}

export interface HubFileChunksTable {
  file_id: string;
  seq: number;
  data: Uint8Array;
}

export interface FilesDatabase {
  hub_files: HubFilesTable;
  hub_file_chunks: HubFileChunksTable;
}
