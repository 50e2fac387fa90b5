import { type BrowserAdapter, diosc } from '@diosc/kit';

/** Starts the kit when the page names a hub (`<meta name="diosc-hub-url">` and the publishable key). */
export function connectAssistant(): ((adapter: BrowserAdapter) => void) | null {
  const meta = (name: string) =>
    document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content ?? '';
  const hubUrl = meta('diosc-hub-url');
  const publishableKey = meta('diosc-publishable-key');
  if (!hubUrl || !publishableKey) return null;
  diosc('init', { hubUrl, publishableKey, theme: { '--diosc-accent': '#3056d3' } });
  // Swapping the adapter is the whole protocol: the kit re-reads intents at every dispatch.
  return (adapter) => diosc('browserAdapter', adapter);
}
