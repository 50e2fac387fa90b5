import type { IntentFileEmission } from '../types.js';

/** A `file` field as the seed defines it: `{ content, filename, mimeType? }`. */
export function isFileEmission(value: unknown): value is IntentFileEmission {
  return typeof value === 'object' && value !== null && 'content' in value && 'filename' in value;
}

/** Bytes of a `data:` URL, or null when it is not one. */
function fromDataUrl(url: string): Blob | null {
  const match = /^data:([^,;]*)((?:;[^,;]*)*?)(;base64)?,(.*)$/s.exec(url);
  if (!match) return null;
  const type = match[1] || 'text/plain';
  const payload = match[4]!;
  if (!match[3]) return new Blob([decodeURIComponent(payload)], { type });
  const binary = atob(payload);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return new Blob([bytes], { type });
}

/**
 * The emission as one typed Blob: a Blob/File as it is (its own type, or `mimeType`), a `data:` URL
 * decoded, any other string as text. A Blob without a type, or text, needs `mimeType`.
 */
export function emissionBlob(file: IntentFileEmission): { blob: Blob; filename: string } | { error: string } {
  const { content, filename, mimeType } = file;
  if (typeof filename !== 'string' || filename.trim() === '')
    return { error: 'file.filename must be a non-empty string' };
  if (mimeType !== undefined && (typeof mimeType !== 'string' || !/^[\w.+-]+\/[\w.+-]+/.test(mimeType)))
    return { error: 'file.mimeType must be a MIME type such as "text/csv"' };
  if (typeof Blob !== 'undefined' && content instanceof Blob) {
    const type = mimeType ?? content.type;
    if (!type) return { error: 'file.mimeType is required for a Blob without a type' };
    return { blob: type === content.type ? content : new Blob([content], { type }), filename };
  }
  if (typeof content !== 'string') return { error: 'file.content must be a Blob, a data: URL or a string' };
  if (content.startsWith('data:')) {
    try {
      const blob = fromDataUrl(content);
      if (blob) return { blob: mimeType ? new Blob([blob], { type: mimeType }) : blob, filename };
    } catch {
      // Malformed base64: reported below.
    }
    return { error: 'file.content is not a valid data: URL' };
  }
  if (!mimeType) return { error: 'file.mimeType is required when file.content is a text string' };
  return { blob: new Blob([content], { type: mimeType }), filename };
}
