/**
 * Tells the portal's other tabs that something of the session changed — `session` (sign-in,
 * sign-out) or `browser-access` (the selection) — so they re-read it. BroadcastChannel where
 * available, a `storage` event as the fallback. Only a nonce crosses: never a token, an email,
 * a selection or a generation.
 */
export type CrossTabTopic = 'session' | 'browser-access';

export function createCrossTab(topic: CrossTabTopic, onChange: () => void) {
  const storageKey = `diosc.${topic}-changed`;
  const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(`diosc-${topic}`) : null;
  const onMessage = () => onChange();
  const onStorage = (event: StorageEvent) => {
    if (event.key === storageKey) onChange();
  };
  channel?.addEventListener('message', onMessage);
  window.addEventListener('storage', onStorage);

  return {
    announce(): void {
      channel?.postMessage({ kind: 'changed' });
      try {
        localStorage.setItem(storageKey, crypto.randomUUID());
      } catch {
        // Storage can be unavailable (private mode quotas); the channel still carries the news.
      }
    },
    close(): void {
      channel?.close();
      window.removeEventListener('storage', onStorage);
    },
  };
}
