/**
 * The stored types the hub names: a short `format` for descriptors and the extensions a safe
 * filename may end in (the first is used when the name's own does not fit the type).
 */
const KNOWN: Record<string, { format: string; extensions: string[] }> = {
  'image/png': { format: 'png', extensions: ['png'] },
  'image/jpeg': { format: 'jpg', extensions: ['jpg', 'jpeg'] },
  'image/gif': { format: 'gif', extensions: ['gif'] },
  'image/webp': { format: 'webp', extensions: ['webp'] },
  'image/svg+xml': { format: 'svg', extensions: ['svg'] },
  'application/pdf': { format: 'pdf', extensions: ['pdf'] },
  'text/plain': { format: 'txt', extensions: ['txt', 'text', 'log'] },
  'text/csv': { format: 'csv', extensions: ['csv'] },
  'text/markdown': { format: 'md', extensions: ['md', 'markdown'] },
  'text/html': { format: 'html', extensions: ['html', 'htm'] },
  'application/json': { format: 'json', extensions: ['json'] },
  'application/xml': { format: 'xml', extensions: ['xml'] },
};

/** Names browsers and tools use for the same type. */
const ALIASES: Record<string, string> = {
  'image/jpg': 'image/jpeg',
  'image/pjpeg': 'image/jpeg',
  'text/x-markdown': 'text/markdown',
  'application/csv': 'text/csv',
  'text/comma-separated-values': 'text/csv',
  'text/xml': 'application/xml',
  'text/json': 'application/json',
};

/** A declared type, lower-cased, without parameters, aliases resolved; undefined when it says nothing. */
export function normalizeMediaType(declared: string | undefined): string | undefined {
  const bare = declared?.split(';')[0]?.trim().toLowerCase();
  if (!bare || bare === 'application/octet-stream' || !/^[a-z]+\/[a-z0-9.+-]+$/.test(bare)) return undefined;
  return ALIASES[bare] ?? bare;
}

/** Types whose bytes are UTF-8 text: checked as such, served with a charset. */
export function isTextType(mediaType: string): boolean {
  return (
    mediaType.startsWith('text/') ||
    mediaType === 'application/json' ||
    mediaType === 'application/xml' ||
    mediaType === 'image/svg+xml'
  );
}

export function formatOf(mediaType: string, detectedExt?: string): string {
  return KNOWN[mediaType]?.format ?? detectedExt ?? 'bin';
}

export function extensionsOf(mediaType: string, detectedExt?: string): string[] {
  return KNOWN[mediaType]?.extensions ?? [detectedExt ?? 'bin'];
}

/** The text type a filename's extension names, for a text upload that declared none. */
export function textTypeOfName(filename: string): string {
  const ext = /\.([A-Za-z0-9]{1,10})$/.exec(filename)?.[1]?.toLowerCase();
  for (const [mediaType, known] of Object.entries(KNOWN)) {
    if (isTextType(mediaType) && ext && known.extensions.includes(ext)) return mediaType;
  }
  return 'text/plain';
}

/** The stored type of a `generate_file` format. */
export function mediaTypeOfFormat(format: string): string | undefined {
  return Object.entries(KNOWN).find(([, known]) => known.format === format)?.[0];
}
