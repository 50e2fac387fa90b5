import { AUDIT_KINDS, AUDIT_OUTCOMES, AUDIT_PAGE_MAX, type AuditPage, DioscError } from '@diosc/protocol';
import type { FastifyInstance } from 'fastify';
import type { AuditFilter } from '../../audit/audit-log.js';
import { auditTimeOf } from '../../audit/audit-time.js';
import { ownerOf } from '../../auth/owner-request.js';
import { integerParam, ownedAssistant, queryOf } from './assistant-scope.js';

function oneOf<T extends string>(
  value: string | undefined,
  name: string,
  allowed: readonly T[],
): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value))
    throw new DioscError('invalid_input', `${name} must be one of ${allowed.join(', ')}.`);
  return value as T;
}

const AUDIT_ID = /^aud_[0-9a-f-]{36}$/;

/**
 * GET /:id/audit?kind=&outcome=&since=&until=&before=&limit= — the assistant's decisions and its
 * owner's account-level ones (connection grants, browser-access reviews), newest first; `before`
 * (a record's id) pages on from that record.
 */
export function registerAuditRoutes(app: FastifyInstance): void {
  app.get('/:id/audit', async (request): Promise<AuditPage> => {
    const query = queryOf(request, ['kind', 'outcome', 'since', 'until', 'before', 'limit']);
    const now = app.diosc.clock.now();
    const filter: AuditFilter = {
      kind: oneOf(query.kind, 'kind', AUDIT_KINDS),
      outcome: oneOf(query.outcome, 'outcome', AUDIT_OUTCOMES),
      ...(query.since !== undefined ? { since: auditTimeOf(query.since, 'since', now) } : {}),
      ...(query.until !== undefined ? { until: auditTimeOf(query.until, 'until', now) } : {}),
    };
    const limit = integerParam(query.limit, 'limit', 1, AUDIT_PAGE_MAX, 50);
    const assistant = await ownedAssistant(app, request);
    if (query.before !== undefined) {
      // The cursor gives only a position in time and id order; the filter still decides what shows.
      const position = AUDIT_ID.test(query.before)
        ? await app.diosc.auditLog.positionOf(query.before)
        : undefined;
      if (!position) throw new DioscError('invalid_input', 'before must be the id of a record in this list.');
      filter.before = position;
    }
    return app.diosc.auditLog.list(
      { ...filter, assistantId: assistant.id, accountId: ownerOf(request).accountId },
      limit,
    );
  });
}
