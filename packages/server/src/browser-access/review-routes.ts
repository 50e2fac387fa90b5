import { DioscError, isMutatingFunction } from '@diosc/protocol';
import type { FastifyInstance } from 'fastify';
import { ownerOf } from '../auth/owner-request.js';
import { recordCall } from '../calls/bookkeeping.js';
import { callerContext } from '../calls/caller-spec.js';
import { runCall } from '../calls/run-call.js';
import { bodyObject } from '../owner/body.js';
import type { BrowserAccessService } from './access.js';
import { browserCaller } from './browser-caller.js';
import { argsDigest, type ReviewReceipts } from './review-receipts.js';
import { assertExposed, assertNoWidening, readToolCall } from './tool-call.js';

/**
 * Writes and deletes from the browser: prepare (effects + receipt) → acknowledge (the owner
 * accepted the review) → execute (exactly the reviewed call, once, within two minutes). A write
 * already committed under its request ID needs no review: prepare answers its stored result.
 */
export function registerReviewRoutes(
  app: FastifyInstance,
  access: BrowserAccessService,
  receipts: ReviewReceipts,
): void {
  const ctx = app.diosc;

  app.post('/prepare', async (request, reply) => {
    const owner = ownerOf(request);
    const call = readToolCall(request.body);
    const current = await access.require(owner, call.generation);
    assertNoWidening(call.body.permissions, current);
    assertExposed(call.tool, current);
    if (!isMutatingFunction(call.tool)) {
      throw new DioscError('invalid_input', `${call.tool} is a read; call it through dispatch.`);
    }
    const caller = browserCaller(owner, current);
    // Already committed under this request ID with this input: nothing would change, so there is
    // nothing to review — the stored result is the answer (recorded as a replay, like execute's).
    const replay = await ctx.core.replayOf(call.tool, call.input, callerContext(caller));
    if (replay) {
      await recordCall(
        { ...ctx, log: request.log },
        { caller, name: call.tool, input: call.input, outcome: 'replayed', durationMs: 0 },
      );
      return reply.status(200).send({ replayed: true, result: replay.result });
    }
    // The core checks the input, the authority and the kind rules exactly as it will at execution.
    const effects = await ctx.core.preview(call.tool, call.input, callerContext(caller));
    const input = call.input;
    const row = await receipts.create({
      accountId: owner.accountId,
      sessionIdHash: owner.session.id_hash,
      connectionId: current.connectionId,
      generation: current.generation,
      tool: call.tool,
      input,
    });
    return reply.status(201).send({
      receipt: {
        id: row.id,
        tool: call.tool,
        input,
        digest: row.args_digest,
        expiresAt: new Date(row.expires_at).toISOString(),
        effects,
      },
    });
  });

  app.post<{ Params: { id: string } }>('/receipts/:id/acknowledge', async (request) => {
    const owner = ownerOf(request);
    const body = bodyObject(request.body, ['digest']);
    const row = await receipts.find(owner.accountId, owner.session.id_hash, request.params.id);
    receipts.assertUsable(row);
    if (body.digest !== row.args_digest) {
      throw new DioscError('receipt_mismatch', 'The digest does not match the prepared input.');
    }
    const current = await access.current(owner);
    if (!current) throw new DioscError('not_enabled');
    if (current.connectionId !== row.connection_id || current.generation !== row.grant_generation) {
      throw new DioscError('generation_changed', 'The selection changed after this change was prepared.');
    }
    await receipts.acknowledge(row);
    return { acknowledged: true };
  });

  app.post('/execute', async (request) => {
    const owner = ownerOf(request);
    const call = readToolCall(request.body, ['receiptId']);
    const current = await access.require(owner, call.generation);
    assertNoWidening(call.body.permissions, current);
    const row = await receipts.find(owner.accountId, owner.session.id_hash, call.body.receiptId);
    if (
      row.connection_id !== current.connectionId ||
      row.grant_generation !== current.generation ||
      row.function_name !== call.tool ||
      row.args_digest !== argsDigest(call.input)
    ) {
      throw new DioscError(
        'receipt_mismatch',
        'The tool, input or selection differs from the reviewed change.',
      );
    }
    receipts.assertUsable(row);
    if (row.acknowledged_at === null) throw new DioscError('review_required');
    if (!(await receipts.consume(row))) throw new DioscError('receipt_used');
    try {
      // The stored canonical copy runs, not the request's: both have the same digest.
      const outcome = await runCall(
        { ...ctx, log: request.log },
        { name: call.tool, input: JSON.parse(row.args_json), caller: browserCaller(owner, current) },
      );
      return { result: outcome.result, replayed: outcome.replayed };
    } catch (error) {
      if (DioscError.isInstance(error) && (error.code === 'rate_limited' || error.code === 'busy')) {
        await receipts.restore(row);
      }
      throw error;
    }
  });
}
