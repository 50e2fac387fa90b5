import { plainText } from '@diosc/protocol';

export const PROVIDER_ERROR_MAX_CHARS = 500;

/**
 * Things that look like credentials in a provider's error text: OpenAI-style keys (`sk-…`, which
 * OpenAI echoes partly in "Incorrect API key provided"), Anthropic keys, bearer values, `key=` and
 * `token=` parameters, and any long unbroken run of key-like characters.
 */
const KEY_SHAPES = [
  /\b(?:sk|pk|rk|ak)[-_][A-Za-z0-9_*.-]{4,}/g,
  /\bBearer\s+\S+/gi,
  /\b(?:api[-_]?key|key|token|secret|password)(\s*[=:]\s*)\S+/gi,
  /[A-Za-z0-9_+/=-]{32,}/g,
];

/**
 * A provider's (or an MCP server's) error text made safe to show the owner: every secret that was
 * used for the call removed wherever it appears (whole or in part), key-shaped runs redacted, markup
 * and control characters stripped, one line, at most 500 characters.
 */
export function safeProviderError(raw: unknown, secrets: readonly (string | undefined)[]): string {
  let text = typeof raw === 'string' ? raw : raw instanceof Error ? raw.message : String(raw);
  for (const secret of secrets) {
    if (!secret || secret.length < 4) continue;
    text = text.split(secret).join('[redacted]');
    // Providers echo a key's start or end ("sk-proj-ab…wxyz"): its 8-character edges go too.
    if (secret.length >= 12) {
      text = text.split(secret.slice(0, 8)).join('[redacted]').split(secret.slice(-8)).join('[redacted]');
    }
  }
  for (const shape of KEY_SHAPES) {
    text = text.replace(shape, (match, separator?: unknown) =>
      typeof separator === 'string' && /[=:]/.test(separator)
        ? `${match.slice(0, match.indexOf(separator) + separator.length)}[redacted]`
        : '[redacted]',
    );
  }
  // A provider behind a proxy may answer an HTML error page: its tags are noise in a message.
  const oneLine = plainText(
    text
      .replace(/<[^<>]*>/g, ' ')
      .replace(/[\s\p{Cc}\p{Cf}]+/gu, ' ')
      .trim(),
  );
  const capped =
    oneLine.length > PROVIDER_ERROR_MAX_CHARS
      ? `${oneLine.slice(0, PROVIDER_ERROR_MAX_CHARS - 1)}…`
      : oneLine;
  return capped || 'The provider answered with an error and no message.';
}
