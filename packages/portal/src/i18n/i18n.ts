import i18next from 'i18next';
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import en from './locales/en.json';
import es from './locales/es.json';

export const LANGUAGES = ['en', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];

const STORAGE_KEY = 'diosc.language';

/** Keys asked for but absent from the active catalogue (also reported with `console.warn`). */
export const missingKeys: string[] = [];

function storedLanguage(): Language | null {
  try {
    const value = localStorage.getItem(STORAGE_KEY);
    return LANGUAGES.includes(value as Language) ? (value as Language) : null;
  } catch {
    return null;
  }
}

function preferredLanguage(): Language {
  const stored = storedLanguage();
  if (stored) return stored;
  const browser = (navigator.language || 'en').slice(0, 2).toLowerCase();
  return LANGUAGES.includes(browser as Language) ? (browser as Language) : 'en';
}

/**
 * English and Spanish from the catalogues in `locales/`. There is deliberately no fallback
 * language: a key missing from one catalogue is reported (and a unit test keeps both catalogues'
 * keys equal) instead of silently showing English inside the Spanish UI.
 */
export async function initI18n(): Promise<void> {
  await i18next.init({
    resources: { en: { translation: en }, es: { translation: es } },
    lng: preferredLanguage(),
    supportedLngs: [...LANGUAGES],
    fallbackLng: false,
    // Lit escapes every interpolated value itself; i18next must not double-escape.
    interpolation: { escapeValue: false },
    returnNull: false,
    // No "maintained with support from …" line in the console on every page load.
    showSupportNotice: false,
    saveMissing: true,
    missingKeyHandler: (_languages, _namespace, key) => {
      missingKeys.push(key);
      console.warn(`[i18n] missing key: ${key}`);
    },
  });
  document.documentElement.lang = i18next.language;
}

export function t(key: string, options?: Record<string, unknown>): string {
  return i18next.t(key, options) as string;
}

/** Whether the active catalogue has `key` (asks without reporting it missing). */
export function hasKey(key: string): boolean {
  return i18next.exists(key);
}

export function currentLanguage(): Language {
  return (LANGUAGES.includes(i18next.language as Language) ? i18next.language : 'en') as Language;
}

/** Switches the language and remembers it for the next visit. */
export async function setLanguage(language: Language): Promise<void> {
  await i18next.changeLanguage(language);
  document.documentElement.lang = language;
  try {
    localStorage.setItem(STORAGE_KEY, language);
  } catch {
    // Not persisted, but switched for this page.
  }
}

/** Formats an ISO time in the active language. */
export function formatTime(iso: string | null | undefined, options: { seconds?: boolean } = {}): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '—';
  return new Intl.DateTimeFormat(currentLanguage(), {
    dateStyle: 'medium',
    timeStyle: options.seconds ? 'medium' : 'short',
  }).format(date);
}

/** Re-renders a Lit host when the language changes. */
export class I18nController implements ReactiveController {
  readonly #host: ReactiveControllerHost;
  readonly #onChange = () => this.#host.requestUpdate();

  constructor(host: ReactiveControllerHost) {
    this.#host = host;
    host.addController(this);
  }

  hostConnected(): void {
    i18next.on('languageChanged', this.#onChange);
  }

  hostDisconnected(): void {
    i18next.off('languageChanged', this.#onChange);
  }
}
