import { DioscError, descriptorsFor, isMutatingFunction } from '@diosc/protocol';
import type { FastifyPluginAsync } from 'fastify';
import { ownerOf } from '../auth/owner-request.js';
import { runCall } from '../calls/run-call.js';
import { exposedFunctions } from '../connections/grant.js';
import { bodyObject } from '../owner/body.js';
import { type BrowserAccess, createBrowserAccess } from './access.js';
import { browserCaller } from './browser-caller.js';
import { createReviewReceipts } from './review-receipts.js';
import { registerReviewRoutes } from './review-routes.js';
import { assertExposed, assertNoWidening, readToolCall } from './tool-call.js';

/**
 * Browser-session access (`/api/owner/browser-access`): enablement with an exact selection,
 * descriptors narrowed to it, reads through dispatch, writes through prepare → acknowledge → execute.
 * Registered inside the owner plugin, so its session, Origin, CSRF and no-store hooks apply.
 */
export const browserAccessPlugin: FastifyPluginAsync = async (app) => {
  const ctx = app.diosc;
  // The release gate: every route stays (so it answers a stable code rather than 404) but refuses,
  // after the owner plugin's session and CSRF checks. Nothing can be enabled, listed or called.
  if (!ctx.config.browserAccess) {
    app.addHook('preHandler', async () => {
      throw new DioscError('feature_disabled');
    });
  }
  const access = createBrowserAccess(ctx);
  const receipts = createReviewReceipts(ctx.store.db, ctx.clock, ctx.audit);
  const { sessions } = ctx;

  async function state(accountId: string, current: BrowserAccess | null) {
    return {
      enabled: current !== null,
      selection: current?.selection ?? null,
      generation: current?.generation ?? null,
      sessionGeneration: await sessions.generationOf(accountId),
    };
  }

  app.get('/', async (request) => {
    const owner = ownerOf(request);
    return state(owner.accountId, await access.current(owner));
  });

  app.put('/', async (request) => {
    const owner = ownerOf(request);
    const body = bodyObject(request.body, ['selection']);
    return state(owner.accountId, await access.enable(owner, body.selection));
  });

  app.delete('/', async (request) => {
    const owner = ownerOf(request);
    await access.disable(owner);
    return state(owner.accountId, null);
  });

  app.get('/descriptors', async (request) => {
    const owner = ownerOf(request);
    const current = await access.current(owner);
    if (!current) throw new DioscError('not_enabled');
    // Offered: the selection's collections that can still be called. The stored selection keeps a
    // disconnected one, so a retained tool naming it answers `source_revoked`.
    const offered = await ctx.core.connectedEntries(owner.accountId, current.selection);
    return {
      tools: descriptorsFor(exposedFunctions(offered)),
      ...(await state(owner.accountId, current)),
    };
  });

  app.post('/dispatch', async (request) => {
    const owner = ownerOf(request);
    const call = readToolCall(request.body);
    const current = await access.require(owner, call.generation);
    assertNoWidening(call.body.permissions, current);
    assertExposed(call.tool, current);
    if (isMutatingFunction(call.tool)) {
      throw new DioscError('review_required', `${call.tool} needs prepare, review and execute.`);
    }
    const { result } = await runCall(
      { ...ctx, log: request.log },
      { name: call.tool, input: call.input, caller: browserCaller(owner, current) },
    );
    // A read is not sent to a session (or a selection) that ended while it ran.
    await access.assertUnchanged(owner, current);
    return { result };
  });

  registerReviewRoutes(app, access, receipts);
};
