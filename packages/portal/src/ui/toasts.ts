import { Observable } from '../state/observable.js';

export interface Toast {
  id: number;
  kind: 'success' | 'error' | 'info';
  /** Already translated text. */
  text: string;
}

/** How many notices are shown at once; a newer one pushes the oldest out. */
export const TOAST_LIMIT = 3;

/** Short notices shown in a polite live region; they leave by themselves. */
export function createToasts() {
  const list = new Observable<Toast[]>([]);
  let sequence = 0;
  return {
    list,
    show(kind: Toast['kind'], text: string): void {
      const toast = { id: ++sequence, kind, text };
      list.set([...list.value, toast].slice(-TOAST_LIMIT));
      setTimeout(() => list.set(list.value.filter((entry) => entry.id !== toast.id)), 5000);
    },
    dismiss(id: number): void {
      list.set(list.value.filter((entry) => entry.id !== id));
    },
  };
}

export type Toasts = ReturnType<typeof createToasts>;
