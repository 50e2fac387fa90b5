import { DioscError } from '@diosc/protocol';

/**
 * Work admission: at most `max` operations of one account run at once. Over it the caller gets
 * `busy` with a retry hint instead of queueing without bound.
 */
export function createAdmission(max: number) {
  const running = new Map<string, number>();
  return {
    enter(accountId: string): () => void {
      const count = running.get(accountId) ?? 0;
      if (count >= max) {
        throw new DioscError('busy', `The account already has ${max} operations running; retry shortly.`, {
          retryAfterMs: 250,
        });
      }
      running.set(accountId, count + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const left = (running.get(accountId) ?? 1) - 1;
        if (left <= 0) running.delete(accountId);
        else running.set(accountId, left);
      };
    },
    running(accountId: string): number {
      return running.get(accountId) ?? 0;
    },
  };
}

export type Admission = ReturnType<typeof createAdmission>;
