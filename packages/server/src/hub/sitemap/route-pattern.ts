/**
 * Sitemap route patterns and the matcher for them. The grammar is deliberately small — literal
 * segments, `:param` for exactly one segment, and an optional trailing `*` for one or more
 * remaining segments — so it is our own few lines rather than `path-to-regexp`, whose defaults
 * (case-insensitive, optional trailing slash, `{}` groups, its own decoding) would each have to be
 * switched off for a check that decides what reaches the page.
 */
export type PatternSegment =
  | { kind: 'literal'; value: string }
  | { kind: 'param'; name: string }
  | { kind: 'rest' };

export const MAX_PATTERN_LENGTH = 512;

/** Characters a literal segment may hold: RFC 3986 "unreserved", which never needs encoding. */
export const LITERAL_SEGMENT = /^[A-Za-z0-9._~-]+$/;
const PARAM_SEGMENT = /^:[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** The pattern's segments, or a plain-text reason it is not a valid pattern. */
export function parsePattern(pattern: string): PatternSegment[] | string {
  if (pattern.length > MAX_PATTERN_LENGTH) return `is longer than ${MAX_PATTERN_LENGTH} characters`;
  if (!pattern.startsWith('/')) return 'must start with /';
  if (pattern.startsWith('//')) return 'must start with a single /';
  if (/[?#]/.test(pattern)) return 'must not contain a query (?) or fragment (#)';
  if (pattern === '/') return [];
  // One trailing slash is tolerated and dropped: `/blog/` and `/blog` are the same route.
  const body = pattern.endsWith('/') ? pattern.slice(1, -1) : pattern.slice(1);
  const segments: PatternSegment[] = [];
  const names = new Set<string>();
  const raw = body.split('/');
  for (const [index, segment] of raw.entries()) {
    if (segment === '') return 'must not contain an empty segment (//)';
    if (segment === '*') {
      if (index !== raw.length - 1) return 'may use * only as the last segment';
      segments.push({ kind: 'rest' });
    } else if (segment.startsWith(':')) {
      if (!PARAM_SEGMENT.test(segment))
        return `has a bad parameter ${segment.slice(0, 70)}; use :name with letters, digits, _`;
      if (names.has(segment)) return `uses the parameter ${segment} twice`;
      names.add(segment);
      segments.push({ kind: 'param', name: segment.slice(1) });
    } else {
      if (segment === '.' || segment === '..') return 'must not contain . or .. segments';
      if (!LITERAL_SEGMENT.test(segment)) {
        return 'may only use letters, digits and . _ ~ - in a segment, :name for a parameter and a final *';
      }
      segments.push({ kind: 'literal', value: segment });
    }
  }
  return segments;
}

/** The canonical text of a pattern: equal for patterns that match exactly the same paths. */
export function patternShape(segments: PatternSegment[]): string {
  const parts = segments.map((segment) =>
    segment.kind === 'literal' ? segment.value : segment.kind === 'param' ? ':' : '*',
  );
  return `/${parts.join('/')}`;
}

/** Whether decoded path segments match; literals compare case-sensitively, as URL paths do. */
export function matchesPattern(pattern: PatternSegment[], segments: string[]): boolean {
  for (const [index, part] of pattern.entries()) {
    if (part.kind === 'rest') return segments.length > index;
    const segment = segments[index];
    if (segment === undefined || segment === '') return false;
    if (part.kind === 'literal' && segment !== part.value) return false;
  }
  return segments.length === pattern.length;
}

/**
 * Orders matching routes so the most specific wins: segment by segment a literal beats a
 * parameter beats `*` (so `/products/new` wins over `/products/:id` for `/products/new`).
 */
export function compareSpecificity(a: PatternSegment[], b: PatternSegment[]): number {
  const weight = (segment: PatternSegment | undefined) =>
    segment === undefined ? 0 : segment.kind === 'literal' ? 3 : segment.kind === 'param' ? 2 : 1;
  for (let index = 0; index < Math.max(a.length, b.length); index++) {
    const difference = weight(b[index]) - weight(a[index]);
    if (difference !== 0) return difference;
  }
  return 0;
}
