import { DioscError } from '@diosc/protocol';
import { fileTypeFromBuffer, supportedMimeTypes } from 'file-type';
import { extensionsOf, formatOf, isTextType, normalizeMediaType, textTypeOfName } from './file-formats.js';

export interface StoredType {
  mediaType: string;
  format: string;
  extensions: string[];
}

/**
 * The type a file is stored as, decided from its first bytes (magic numbers, `file-type`) and what
 * the page declared. A binary signature wins and must agree with the declaration; text must be
 * declared as text (or nothing, when the filename's extension names it); a declaration of a type
 * that has a signature the bytes lack is refused. Anything else cannot be reconciled.
 */
export async function decideStoredType(input: {
  head: Uint8Array;
  declared: string | undefined;
  filename: string;
}): Promise<StoredType> {
  const declared = normalizeMediaType(input.declared);
  const detected = await fileTypeFromBuffer(input.head);
  const mismatch = (actual: string) =>
    new DioscError(
      'file_type_mismatch',
      `The content is ${actual}, but the file was declared as ${declared}.`,
    );

  if (detected && !isTextType(detected.mime)) {
    if (declared && normalizeMediaType(detected.mime) !== declared) throw mismatch(detected.ext);
    return typed(detected.mime, detected.ext);
  }
  if (!looksLikeText(input.head)) {
    if (declared && (isTextType(declared) || supportedMimeTypes.has(declared as never)))
      throw mismatch('binary data');
    return typed(declared ?? 'application/octet-stream');
  }
  if (declared && !isTextType(declared)) throw mismatch('text');
  return typed(declared ?? textTypeOfName(input.filename));
}

function typed(mediaType: string, detectedExt?: string): StoredType {
  return {
    mediaType,
    format: formatOf(mediaType, detectedExt),
    extensions: extensionsOf(mediaType, detectedExt),
  };
}

/** UTF-8 without NUL; a multi-byte character cut at the end of the sample is allowed. */
function looksLikeText(head: Uint8Array): boolean {
  if (head.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
    return true;
  } catch {
    return false;
  }
}

/**
 * Checks a text file's bytes as they stream: each chunk must continue valid UTF-8 without NUL.
 * `end()` catches a character cut off at the very end.
 */
export function textChecker() {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const refuse = () =>
    new DioscError('file_type_mismatch', 'The file was stored as text but is not valid UTF-8 text.');
  return {
    push(chunk: Uint8Array): void {
      if (chunk.includes(0)) throw refuse();
      try {
        decoder.decode(chunk, { stream: true });
      } catch {
        throw refuse();
      }
    },
    end(): void {
      try {
        decoder.decode();
      } catch {
        throw refuse();
      }
    },
  };
}
