import { DioscError } from '@diosc/protocol';
import { splitNavigationPath } from './navigation-path.js';
import {
  compareSpecificity,
  matchesPattern,
  type PatternSegment,
  parsePattern,
  patternShape,
} from './route-pattern.js';

/** One page (or family of pages) of the host site the assistant may navigate to. */
export interface SitemapRoute {
  /** A pattern such as `/products/:id`; `:name` is one segment, a final `*` the rest of the path. */
  path: string;
  title: string;
  description?: string;
}

export type NavigationCheck =
  | { ok: true; path: string; route: SitemapRoute }
  | { ok: false; code: 'path_not_in_sitemap'; message: string };

export const MAX_ROUTES = 100;
const MAX_TITLE = 200;
const MAX_DESCRIPTION = 1000;
const MAX_SHOWN = 200;

/**
 * An assistant's routes from configuration (YAML, JSON, the CLI), checked and normalised: patterns
 * valid and distinct, titles plain one-line text. Throws `invalid_input` naming the bad route.
 *
 * @example
 * validateRoutes([{ path: '/products/:id', title: 'Product', description: 'One product.' }]);
 */
export function validateRoutes(routes: unknown): SitemapRoute[] {
  if (!Array.isArray(routes)) throw new DioscError('invalid_input', 'The Sitemap must be a list of routes.');
  if (routes.length > MAX_ROUTES) {
    throw new DioscError(
      'invalid_input',
      `The Sitemap has ${routes.length} routes; at most ${MAX_ROUTES} are allowed.`,
    );
  }
  const shapes = new Map<string, number>();
  return routes.map((route: unknown, index) => {
    const where = `Sitemap route ${index + 1}`;
    if (typeof route !== 'object' || route === null)
      throw new DioscError('invalid_input', `${where} is not an object.`);
    const { path, title, description } = route as Record<string, unknown>;
    if (typeof path !== 'string') throw new DioscError('invalid_input', `${where} has no path pattern.`);
    const segments = parsePattern(path);
    if (typeof segments === 'string')
      throw new DioscError('invalid_input', `${where} ${show(path)} ${segments}.`);
    const shape = patternShape(segments);
    const earlier = shapes.get(shape);
    if (earlier !== undefined) {
      throw new DioscError(
        'invalid_input',
        `${where} ${show(path)} matches the same paths as route ${earlier}.`,
      );
    }
    shapes.set(shape, index + 1);
    const normalised: SitemapRoute = {
      path: path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path,
      title: oneLine(title, MAX_TITLE, `${where} needs a title`),
    };
    if (description !== undefined && description !== null && description !== '') {
      normalised.description = oneLine(description, MAX_DESCRIPTION, `${where} has a bad description`);
    }
    return normalised;
  });
}

/**
 * Whether the model may navigate to `path`: a safe same-origin relative path (see
 * `navigation-path.ts` for each refusal) whose path part matches a route. The most specific route
 * wins. A refusal is meant for the model as a tool error; the page never sees the path.
 */
export function checkNavigationPath(routes: readonly SitemapRoute[], path: unknown): NavigationCheck {
  const split = splitNavigationPath(path);
  if (!split.ok) return refusal(`The path ${show(path)} ${split.reason}.`, routes);
  let best: { route: SitemapRoute; segments: PatternSegment[] } | undefined;
  for (const route of routes) {
    const segments = parsePattern(route.path);
    if (typeof segments === 'string' || !matchesPattern(segments, split.segments)) continue;
    if (!best || compareSpecificity(segments, best.segments) < 0) best = { route, segments };
  }
  if (!best) return refusal(`The path ${show(path)} is not in this assistant's Sitemap.`, routes);
  return { ok: true, path: path as string, route: best.route };
}

function refusal(problem: string, routes: readonly SitemapRoute[]): NavigationCheck {
  const listed = routes.slice(0, 20).map((route) => route.path);
  const more = routes.length > listed.length ? ', …' : '';
  const hint =
    routes.length === 0
      ? 'This assistant has no Sitemap routes, so it cannot navigate.'
      : `Navigate only to paths matching: ${listed.join(', ')}${more}.`;
  return { ok: false, code: 'path_not_in_sitemap', message: `${problem} ${hint}` };
}

/**
 * A caller's text inside a message: quoted, at most 200 characters, with every character outside
 * printable ASCII (and `<`, `>`) escaped, so it can neither break the message nor hide in it.
 */
function show(value: unknown): string {
  const text = typeof value === 'string' ? value : String(value);
  const quoted = JSON.stringify(text.slice(0, MAX_SHOWN)).replace(
    /[^\x20-\x3b\x3d\x3f-\x7e]/g,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return text.length > MAX_SHOWN ? `${quoted}…` : quoted;
}

function oneLine(value: unknown, max: number, problem: string): string {
  if (typeof value !== 'string') throw new DioscError('invalid_input', `${problem} (text).`);
  const text = value.replace(/[\s\p{Cc}\p{Cf}]+/gu, ' ').trim();
  if (text === '') throw new DioscError('invalid_input', `${problem} (text).`);
  if (text.length > max) throw new DioscError('invalid_input', `${problem}: at most ${max} characters.`);
  return text;
}
