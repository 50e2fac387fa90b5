import { PassThrough } from 'node:stream';
import { AG_UI_RUN_MAX_BYTES, DioscError, HUB_ROUTES } from '@diosc/protocol';
import { validateHubBody } from '@diosc/protocol/validators';
import type { FastifyPluginAsync, preHandlerAsyncHookHandler } from 'fastify';
import type { Hub } from '../hub.js';
import { sendMessage } from '../turns/send-message.js';
import { applyResume, type ResumeOutcome } from './apply-resume.js';
import { registryOf } from './client-tools.js';
import { reconcileHistory } from './reconcile-history.js';
import { streamRun } from './run-stream.js';
import { serverHistory } from './server-history.js';

/**
 * `POST /api/hub/ag-ui`: the hub as an AG-UI agent (docs/ag-ui.md). Everything that can be refused
 * is decided before the stream opens, so a refusal is the hub's JSON error at its status and
 * nothing changed: the body's schema, the thread (a conversation of this visitor), the re-sent
 * history against the hub's, then either the resume entries (through the hub's own answer and
 * decision doors) or the one new message (a turn, as `sendMessage` starts it).
 */
export function agUiRoute(deps: Hub, messageLimit: preHandlerAsyncHookHandler): FastifyPluginAsync {
  const hub = deps.services;
  return async (app) => {
    app.post(
      HUB_ROUTES.agUiRun.path,
      // A run counts against the visitor's messages, resume or new message alike: one budget for
      // both wires.
      { bodyLimit: AG_UI_RUN_MAX_BYTES, config: { visitorStream: true }, preHandler: messageLimit },
      async (request, reply) => {
        const body = validateHubBody('agUiRun', request.body);
        const session = request.visitor!;
        const conversation = await hub.conversations.requireOwned(body.threadId, session);
        const cursor = await hub.events.lastId(conversation.id);
        const history = await serverHistory(hub, conversation.id, cursor);
        const reconciled = reconcileHistory(body.messages, history.messages);
        let resumed: ResumeOutcome[] = [];
        if (body.resume?.length) {
          if (reconciled.kind === 'new-message')
            throw new DioscError(
              'invalid_input',
              'A run either resumes interrupts or adds a message, not both.',
            );
          resumed = await applyResume(deps, session, conversation.id, body.resume);
        } else if (reconciled.kind === 'new-message') {
          const message = validateHubBody('sendMessage', {
            text: reconciled.text,
            registry: registryOf(body.tools),
          });
          await sendMessage(deps, session, { conversationId: conversation.id, body: message });
        }
        const out = new PassThrough();
        reply.raw.once('close', () => out.destroy());
        void streamRun(
          hub,
          {
            threadId: body.threadId,
            runId: body.runId,
            conversationId: conversation.id,
            cursor,
            history,
            snapshot: reconciled.kind === 'behind',
            resumed,
          },
          out,
        );
        reply.header('content-type', 'text/event-stream; charset=utf-8');
        reply.header('x-accel-buffering', 'no');
        return reply.status(HUB_ROUTES.agUiRun.status).send(out);
      },
    );
  };
}
