import { type CollectionKind, DioscError, type OperationInputs } from '@diosc/protocol';

export type WriteAction = 'metadata' | 'create' | 'replace';

/**
 * What an item_write asks of a collection of this kind, or the refusal. The one statement of the
 * kind rules: the core applies them before claiming a request ID, and the review preview applies
 * them before showing a change, so the owner is never shown a change the core would refuse.
 */
export function planWrite(kind: CollectionKind, input: OperationInputs['item_write']): WriteAction {
  if (kind === 'inbox') {
    if (input.content !== undefined) {
      throw new DioscError(
        'unsupported_input',
        'Inbox writes edit message metadata only (read, flagged, archived, labels); body and sender cannot change.',
      );
    }
    if (input.ifNoneMatch !== undefined) {
      throw new DioscError('unsupported_input', 'Inbox messages cannot be created here; only edited.');
    }
    return 'metadata';
  }
  if (input.metadata !== undefined) {
    throw new DioscError(
      'unsupported_input',
      'Message metadata applies to inbox items only; give `content`.',
    );
  }
  if (input.ifMatch === undefined && input.ifNoneMatch === undefined) {
    throw new DioscError(
      'invalid_input',
      'Storage writes are conditional: give ifNoneMatch "*" to create or ifMatch with the current version to replace.',
    );
  }
  return input.ifNoneMatch === '*' ? 'create' : 'replace';
}
