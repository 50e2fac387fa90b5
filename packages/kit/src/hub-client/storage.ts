/**
 * The kit's persisted state, under one prefix. The visitor session (token) lives in `localStorage`
 * so every tab of the host shares it; the conversation and the interrupt journal live in
 * `sessionStorage`: they belong to this tab, survive a reload or a full-page navigation, and keep two
 * tabs from answering each other's interrupts. A storage that throws (private mode, a sandboxed
 * frame) degrades to memory for this page.
 */
export interface KitStorage {
  get<T>(key: string): T | null;
  set(key: string, value: unknown): void;
  remove(key: string): void;
  /** Keys under the prefix that start with `start`. */
  keys(start: string): string[];
}

const PREFIX = 'diosc:';

export function kitStorage(area: 'local' | 'session'): KitStorage {
  let store: Storage | null = null;
  try {
    store = area === 'local' ? globalThis.localStorage : globalThis.sessionStorage;
    store.getItem(PREFIX);
  } catch {
    store = null;
  }
  return store ? fromStorage(store) : memoryStorage();
}

function fromStorage(store: Storage): KitStorage {
  return {
    get<T>(key: string): T | null {
      try {
        const raw = store.getItem(PREFIX + key);
        return raw === null ? null : (JSON.parse(raw) as T);
      } catch {
        return null;
      }
    },
    set(key, value) {
      try {
        store.setItem(PREFIX + key, JSON.stringify(value));
      } catch {
        // Quota or a revoked storage: the value lives only as long as the page.
      }
    },
    remove(key) {
      try {
        store.removeItem(PREFIX + key);
      } catch {
        // Nothing to remove.
      }
    },
    keys(start) {
      const found: string[] = [];
      for (let i = 0; i < store.length; i++) {
        const key = store.key(i);
        if (key?.startsWith(PREFIX + start)) found.push(key.slice(PREFIX.length));
      }
      return found;
    },
  };
}

export function memoryStorage(): KitStorage {
  const map = new Map<string, string>();
  return {
    get: <T>(key: string) => (map.has(key) ? (JSON.parse(map.get(key)!) as T) : null),
    set: (key, value) => void map.set(key, JSON.stringify(value)),
    remove: (key) => void map.delete(key),
    keys: (start) => [...map.keys()].filter((key) => key.startsWith(start)),
  };
}
