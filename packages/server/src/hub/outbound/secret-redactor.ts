export const REDACTED = '[redacted]';

/** A secret shorter than this is not searched for: removing it would shred ordinary text. */
const MIN_SECRET_LENGTH = 6;
/** Nested results deeper than this are cut rather than walked (an MCP result is plain JSON). */
const MAX_DEPTH = 32;

/**
 * The one seam every text from outside the hub passes (MCP results and errors, provider errors,
 * fetch failures) before it reaches the model, an event, a transcript or a log line. It knows every
 * secret the hub holds for one assistant and removes each wherever it appears — as sent, and in the
 * forms a server may echo it in: URL-encoded, JSON-escaped, and base64 of the value or of
 * `Bearer <value>` (a header echoed back encoded).
 */
export interface SecretRedactor {
  /** The text with every known secret replaced by `[redacted]`. */
  text(raw: string): string;
  /** A JSON-like value with every string (and object key) redacted; other values kept. */
  value(raw: unknown): unknown;
  /** An error's message (or a thrown value as text), redacted. */
  error(raw: unknown): string;
  /**
   * How many characters a stream must hold back before passing text on, so that a secret split
   * across chunks is still whole when it is searched for (the longest form, less one).
   */
  holdBack: number;
}

/** The secrets the hub holds for an assistant (its `AssistantSecrets`), as this seam reads them. */
export interface HeldSecrets {
  providerKey?: string;
  identitySecret?: string;
  mcpTokens?: Record<string, string>;
}

/** Every secret the hub holds for an assistant, plus the server's own provider keys it may send. */
export function assistantSecretValues(
  secrets: HeldSecrets,
  env: Record<string, string | undefined> = {},
): string[] {
  return [
    secrets.providerKey,
    secrets.identitySecret,
    ...Object.values(secrets.mcpTokens ?? {}),
    env.OPENAI_API_KEY,
    env.ANTHROPIC_API_KEY,
  ].filter((value): value is string => typeof value === 'string');
}

function formsOf(secret: string): string[] {
  const forms = new Set<string>([secret, secret.trim()]);
  forms.add(encodeURIComponent(secret));
  forms.add(JSON.stringify(secret).slice(1, -1));
  for (const plain of [secret, `Bearer ${secret}`]) {
    const bytes = Buffer.from(plain, 'utf8');
    forms.add(bytes.toString('base64'));
    forms.add(bytes.toString('base64').replace(/=+$/, ''));
    forms.add(bytes.toString('base64url'));
  }
  return [...forms].filter((form) => form.length >= MIN_SECRET_LENGTH);
}

export function createSecretRedactor(secrets: Iterable<string | undefined>): SecretRedactor {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (typeof secret !== 'string' || secret.trim().length < MIN_SECRET_LENGTH) continue;
    for (const form of formsOf(secret)) forms.add(form);
  }
  // Longest first, so a form that contains another (base64 of `Bearer …`) goes whole.
  const ordered = [...forms].sort((a, b) => b.length - a.length);
  const text = (raw: string): string => {
    let out = raw;
    for (const form of ordered) if (out.includes(form)) out = out.split(form).join(REDACTED);
    return out;
  };
  const value = (raw: unknown, depth = 0): unknown => {
    if (typeof raw === 'string') return text(raw);
    if (raw === null || typeof raw !== 'object') return raw;
    if (depth >= MAX_DEPTH) return null;
    if (Array.isArray(raw)) return raw.map((item) => value(item, depth + 1));
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(raw)) out[text(key)] = value(item, depth + 1);
    return out;
  };
  return {
    text,
    value: (raw) => value(raw),
    error: (raw) => text(raw instanceof Error ? raw.message : typeof raw === 'string' ? raw : String(raw)),
    holdBack: Math.max(0, (ordered[0]?.length ?? 0) - 1),
  };
}
