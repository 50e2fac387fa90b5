/**
 * A delivered file as the model, the transcript and the chip see it: no bytes, no credential.
 * `downloadUrl` is a hub path that works only with the visitor's own session.
 */
export interface FileDescriptor {
  fileId: string;
  filename: string;
  /** The stored type's short name (`png`, `csv`, `pdf`, …). */
  format: string;
  downloadUrl: string;
  sizeBytes: number;
}

/**
 * `POST /api/hub/conversations/:id/files` is `multipart/form-data` with these parts: the optional
 * `interruptId` (the pending browser-tool interrupt the file answers) first, then the `file`.
 * The reply is `201` with the `FileDescriptor`.
 *
 * @example
 * const form = new FormData();
 * form.append(FILE_UPLOAD_PARTS.interruptId, interrupt.id);
 * form.append(FILE_UPLOAD_PARTS.file, blob, 'diagram.png');
 */
export const FILE_UPLOAD_PARTS = { interruptId: 'interruptId', file: 'file' } as const;
