// @vitest-environment happy-dom
import { beforeAll, describe, expect, it } from 'vitest';
import { currentLanguage, initI18n, missingKeys, setLanguage, t } from '../src/i18n/i18n.js';

describe('i18n runtime', () => {
  beforeAll(async () => {
    localStorage.clear();
    await initI18n();
  });

  it('reports a key missing from the active catalogue instead of falling back silently', async () => {
    await setLanguage('es');
    expect(t('automation.title')).toBe('Centro de automatización');
    expect(missingKeys).toEqual([]);
    t('automation.noSuchKey');
    expect(missingKeys).toContain('automation.noSuchKey');
  });

  it('remembers the chosen language', async () => {
    await setLanguage('en');
    expect(localStorage.getItem('diosc.language')).toBe('en');
    expect(currentLanguage()).toBe('en');
    expect(document.documentElement.lang).toBe('en');
    expect(t('apps.form.days', { count: 1 })).toBe('In 1 day');
    expect(t('apps.form.days', { count: 30 })).toBe('In 30 days');
  });
});
