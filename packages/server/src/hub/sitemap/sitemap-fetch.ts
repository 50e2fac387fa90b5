import { DioscError } from '@diosc/protocol';
import type { GuardedFetch } from '../outbound/guarded-fetch.js';
import { MAX_SITEMAP_XML_CHARS } from './sitemap-xml.js';

export const SITEMAP_FETCH_TIMEOUT_MS = 10_000;

/**
 * The text of a sitemap.xml at `url`, fetched through the guarded fetch (so only public addresses,
 * unless the operator allows private ones): at most 5 MB, read as it arrives and cut off beyond
 * that; at most 10 s in all. Any failure is `fetch_failed` with a plain reason, never the body.
 */
export async function fetchSitemapXml(
  fetch: GuardedFetch,
  url: string,
  timeoutMs = SITEMAP_FETCH_TIMEOUT_MS,
): Promise<string> {
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const response = await fetch(url, {
      signal,
      headers: { accept: 'application/xml, text/xml;q=0.9, */*;q=0.1' },
    });
    if (response.status !== 200) {
      await response.body?.cancel();
      throw new DioscError('fetch_failed', `The sitemap URL answered HTTP ${response.status}, not 200.`);
    }
    const declared = Number(response.headers.get('content-length') ?? 0);
    if (declared > MAX_SITEMAP_XML_CHARS) {
      await response.body?.cancel();
      throw tooLarge();
    }
    const reader = response.body?.getReader();
    if (!reader) return '';
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > MAX_SITEMAP_XML_CHARS) {
        await reader.cancel();
        throw tooLarge();
      }
      chunks.push(value);
    }
    return new TextDecoder('utf-8', { fatal: false }).decode(Buffer.concat(chunks));
  } catch (error) {
    if (error instanceof DioscError) throw error;
    if (signal.aborted)
      throw new DioscError('fetch_failed', `The sitemap URL did not answer within ${timeoutMs / 1000} s.`);
    throw new DioscError('fetch_failed', 'The sitemap URL could not be reached.');
  }
}

function tooLarge(): DioscError {
  return new DioscError(
    'fetch_failed',
    `The sitemap is larger than ${MAX_SITEMAP_XML_CHARS / 1024 / 1024} MB.`,
  );
}
