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
