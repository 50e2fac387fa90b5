import type { FastifyInstance } from 'fastify';
import { hubOf, integerParam, ownedAssistant, queryOf } from './assistant-scope.js';

/** GET /:id/usage?days= — turns, tool calls and tokens per UTC day, errors by code. */
export function registerUsageRoutes(app: FastifyInstance): void {
  app.get('/:id/usage', async (request) => {
    const days = integerParam(queryOf(request, ['days']).days, 'days', 1, 90, 30);
    const assistant = await ownedAssistant(app, request);
    return hubOf(app).services.usageOf(assistant.id, days);
  });
}
