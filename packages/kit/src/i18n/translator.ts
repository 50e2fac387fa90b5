// With the attribute, Node (a server render importing the package) loads them as bundlers do.
import en from './locales/en.json' with { type: 'json' };
import es from './locales/es.json' with { type: 'json' };

type Catalogue = { [key: string]: string | Catalogue };

/** The catalogues, in the portal's format (i18next JSON: nested keys, `{{name}}`, `_one`/`_other`). */
export const CATALOGUES: Record<Locale, Catalogue> = { en, es };
export const LOCALES = ['en', 'es'] as const;
export type Locale = (typeof LOCALES)[number];

export interface Translator {
  readonly locale: Locale;
  t(key: string, values?: Record<string, string | number>): string;
}

/** `init`'s `locale`, else the browser's language, else English. */
export function pickLocale(requested?: string): Locale {
  const tag = (requested ?? globalThis.navigator?.language ?? 'en').slice(0, 2).toLowerCase();
  return (LOCALES as readonly string[]).includes(tag) ? (tag as Locale) : 'en';
}

function lookup(catalogue: Catalogue, key: string): string | undefined {
  let node: string | Catalogue | undefined = catalogue;
  for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  return typeof node === 'string' ? node : undefined;
}

/**
 * English or Spanish for one kit instance (no global state). Like the portal there is no fallback
 * language: a missing key is reported and shows as the key, and a test keeps both catalogues equal.
 * The portal's i18next would be 14 KB gzip of the kit's 30 KB budget; this is the part we use.
 */
export function createTranslator(locale: Locale): Translator {
  const catalogue = CATALOGUES[locale];
  const plurals = new Intl.PluralRules(locale);
  return {
    locale,
    t(key, values = {}) {
      const count = values.count;
      const text =
        (typeof count === 'number'
          ? (lookup(catalogue, `${key}_${plurals.select(count)}`) ?? lookup(catalogue, `${key}_other`))
          : undefined) ?? lookup(catalogue, key);
      if (text === undefined) {
        console.warn(`[diosc] missing ${locale} text: ${key}`);
        return key;
      }
      return text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name] ?? ''));
    },
  };
}
