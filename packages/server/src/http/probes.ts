import { DioscError } from '@diosc/protocol';
import type { FastifyInstance } from 'fastify';
import type { Store } from '../store/dialect.js';
import { storeReadiness } from '../store/readiness.js';

const NOT_READY: Record<'unreachable' | 'not_migrated', string> = {
  unreachable: 'The store cannot be reached.',
  not_migrated: 'The store is not migrated to this version of the server.',
};

/**
 * Liveness apart from readiness. `/healthz` says the process answers (restart it when it does
 * not) and never touches the store: a database outage must not make an orchestrator restart every
 * instance. `/readyz` says it can serve now (send it traffic): 503 `not_ready` while the store is
 * unreachable or not migrated, 200 again as soon as it is, with nothing to restart.
 */
export function installProbes(app: FastifyInstance, store: Store): void {
  app.get('/healthz', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return { status: 'ok', store: store.dialect };
  });
  app.get('/readyz', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    const readiness = await storeReadiness(store);
    if (!readiness.ready) throw new DioscError('not_ready', NOT_READY[readiness.reason]);
    return { status: 'ready', store: store.dialect };
  });
}
