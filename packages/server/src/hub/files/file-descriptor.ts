import { type FileDescriptor, HUB_API_PREFIX, hubPath } from '@diosc/protocol';
import type { HubFilesTable } from '../../store/files-schema.js';

/** A hub path, not a credential: it answers only with the owning visitor's bearer session. */
export function downloadUrlOf(fileId: string): string {
  return `${HUB_API_PREFIX}${hubPath('downloadFile', fileId)}`;
}

/** What the model, the transcript and the chip see: no bytes, no credential. */
export function descriptorOf(row: HubFilesTable): FileDescriptor {
  return {
    fileId: row.id,
    filename: row.filename,
    format: row.format,
    downloadUrl: downloadUrlOf(row.id),
    sizeBytes: Number(row.size_bytes),
  };
}
