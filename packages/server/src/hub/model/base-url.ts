import { DioscError } from '@diosc/protocol';

/**
 * A provider base URL from an assistant or the environment, checked before any request is made:
 * http(s) only, and no user name or password in it — a credential in a URL would end up in labels
 * and logs, so keys go in the key field instead. The URL is never echoed in the error.
 */
export function checkBaseUrl(raw: string, setting: string): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new DioscError(
      'model_not_configured',
      `${setting} is not a valid URL; give one like http://127.0.0.1:11434/v1.`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new DioscError('model_not_configured', `${setting} must be an http:// or https:// URL.`);
  }
  if (url.username || url.password) {
    throw new DioscError(
      'model_not_configured',
      `${setting} must not contain a user name or password; store the key on the assistant instead.`,
    );
  }
  url.hash = '';
  return url;
}

/** The URL as the providers want it: no trailing slash (they append `/chat/completions`). */
export function baseUrlString(url: URL): string {
  return url.href.replace(/\/+$/, '');
}
