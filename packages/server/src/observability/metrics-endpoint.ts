import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { DioscError, ERROR_CODES, type ErrorCode } from '@diosc/protocol';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { ServerConfig } from '../config.js';
import type { Metrics } from './metrics.js';

type MetricsConfig = Pick<ServerConfig, 'metricsToken' | 'metricsPort' | 'metricsHost'>;

/** Metrics are served only when the operator said how they are protected. */
export function metricsEnabled(config: MetricsConfig): boolean {
  return config.metricsToken !== undefined || config.metricsPort !== undefined;
}

/** Compares digests, so neither the token's length nor a matching prefix shows in the timing. */
function bearerMatches(header: string | undefined, token: string): boolean {
  const given = /^Bearer (\S+)$/i.exec(header ?? '')?.[1];
  if (!given) return false;
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(token));
}

const UNAUTHENTICATED = 'Scraping /metrics needs the bearer token of DIOSC_METRICS_TOKEN.';

/**
 * `/metrics` in the Prometheus text format: on the public port behind the bearer token, or — with
 * `metricsPort` — on a listener of its own that answers nothing else (and asks the token too when
 * one is set). Never cached.
 */
export async function installMetricsEndpoint(
  app: FastifyInstance,
  metrics: Metrics,
  config: MetricsConfig,
): Promise<void> {
  if (config.metricsPort === undefined) {
    const token = config.metricsToken as string;
    app.get('/metrics', async (request, reply) => {
      if (!bearerMatches(request.headers.authorization, token))
        throw new DioscError('unauthenticated', UNAUTHENTICATED);
      const body = await metrics.render();
      return reply.header('cache-control', 'no-store').type(metrics.contentType).send(body);
    });
    return;
  }
  const listener = metricsListener(metrics, config.metricsToken, app.log);
  const { metricsPort: port, metricsHost: host } = config;
  app.addHook(
    'onReady',
    () =>
      new Promise<void>((resolve, reject) => {
        listener.once('error', reject);
        listener.listen(port, host, () => {
          listener.off('error', reject);
          resolve();
        });
      }),
  );
  app.addHook(
    'onClose',
    () =>
      new Promise<void>((resolve) => {
        listener.closeAllConnections();
        listener.close(() => resolve());
      }),
  );
  app.decorate('metricsServer', listener);
}

function metricsListener(metrics: Metrics, token: string | undefined, log: FastifyBaseLogger): Server {
  const refuse = (response: import('node:http').ServerResponse, code: ErrorCode, message: string) => {
    response.writeHead(ERROR_CODES[code].status, {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
    });
    response.end(JSON.stringify({ error: { code, message, retryable: ERROR_CODES[code].retryable } }));
  };
  return createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD'))
      return refuse(response, 'not_found', 'This port serves only GET /metrics.');
    if (token !== undefined && !bearerMatches(request.headers.authorization, token))
      return refuse(response, 'unauthenticated', UNAUTHENTICATED);
    metrics.render().then(
      (body) => {
        response.writeHead(200, { 'content-type': metrics.contentType, 'cache-control': 'no-store' });
        response.end(request.method === 'HEAD' ? undefined : body);
      },
      (error: unknown) => {
        log.error({ err: error }, 'rendering metrics failed');
        refuse(response, 'internal', ERROR_CODES.internal.message);
      },
    );
  });
}
