import { HUB_API_PREFIX, HUB_ROUTES } from '@diosc/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routesOf } from '../http/routes.js';
import { type HubTestServer, startHubServer } from './support/hub-server.js';

let server: HubTestServer;
beforeAll(async () => {
  server = await startHubServer();
});
afterAll(async () => {
  await server?.close();
});

describe('the hub’s routes are the route table', () => {
  it('registers every route of HUB_ROUTES with its method, and no route the table does not hold', () => {
    const expected = Object.values(HUB_ROUTES).map(
      (route) => `${route.method} ${HUB_API_PREFIX}${route.path}`,
    );
    // HEAD answers every GET (Fastify's default); it is no route of its own.
    const registered = routesOf(server.app, ':id')
      .filter((route) => route.path.startsWith(`${HUB_API_PREFIX}/`) && route.method !== 'HEAD')
      .map((route) => `${route.method} ${route.path}`);
    expect(registered.sort()).toEqual(expected.sort());
  });
});
