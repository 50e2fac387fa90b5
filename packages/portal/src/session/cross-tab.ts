/**
 * Tells the portal's other tabs that the session changed (sign-in, sign-out), so they re-read it.
 * BroadcastChannel where available, and a `storage` event as the fallback. Only a nonce crosses:
 * never a token, an email or a generation.
 */
const CHANNEL = 'diosc-session';
const STORAGE_KEY = 'diosc.session-changed';

export function createCrossTab(onChange: () => void) {
  const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(CHANNEL) : null;
  const onMessage = () => onChange();
  const onStorage = (event: StorageEvent) => {
    if (event.key === STORAGE_KEY) onChange();
  };
  channel?.addEventListener('message', onMessage);
  window.addEventListener('storage', onStorage);

  return {
    announce(): void {
      channel?.postMessage({ kind: 'session-changed' });
      try {
        localStorage.setItem(STORAGE_KEY, crypto.randomUUID());
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
