import { DioscError } from '@diosc/protocol';
import { hasKey, t } from '../i18n/i18n.js';

export function errorCode(error: unknown): string {
  return DioscError.isInstance(error) ? error.code : 'internal';
}

/**
 * The owner-facing sentence for any failure: the translated text of its stable code (a code added
 * to the protocol later still reads sensibly, naming the code).
 */
export function errorText(error: unknown): string {
  const code = errorCode(error);
  return hasKey(`errors.${code}`) ? t(`errors.${code}`) : t('errors.unknown', { code });
}
