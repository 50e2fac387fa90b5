import { createAssistant } from '@diosc/server/testing';
import type { FastifyInstance } from 'fastify';
import { PAGE_ORIGIN } from './fixtures.js';

/**
 * The tail of every bench hub child: the named scripted assistant (found again after a restart on
 * the same store), the app on a free loopback port, and `{ url, publishableKey }` on stdout for
 * the parent. Its limits are the most the schema allows: a bench measures the work, never a
 * refusal or an interrupt's deadline.
 */
export async function serveBenchHub(app: FastifyInstance, accountId: string, name: string): Promise<void> {
  const existing = (await app.diosc.hub!.services.assistants.list(accountId)).find(
    (a) => a.config.name === name,
  );
  const assistant =
    existing ??
    (await createAssistant(app.diosc, accountId, {
      name,
      model: { provider: 'scripted', id: 'bench' },
      allowedOrigins: [PAGE_ORIGIN],
      limits: { messagesPerMinute: 1_000, maxStepsPerTurn: 50, interruptTimeoutMs: 3_600_000 },
    }));
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.stdout.write(
    `${JSON.stringify({ url: `http://127.0.0.1:${port}`, publishableKey: assistant.publishableKey })}\n`,
  );
}
