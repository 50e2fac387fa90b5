import { validateAssistantAdminBody } from '@diosc/protocol/validators';
import type { FastifyInstance } from 'fastify';
import { ownerOf } from '../../auth/owner-request.js';
import {
  createAssistant,
  deleteAssistant,
  updateAssistant,
} from '../../hub/assistant-admin/assistant-admin.js';
import { assistantView, fromOwnerWrite } from '../../hub/assistants/admin-view.js';
import { hubOf, ownedAssistant } from './assistant-scope.js';

/** List, create, read, change and delete the signed-in account's assistants. */
export function registerAssistantRoutes(app: FastifyInstance): void {
  async function viewOf(accountId: string, id: string) {
    const shown = await hubOf(app).services.assistants.show(accountId, id);
    return assistantView(shown, shown.secrets);
  }

  app.get('/', async (request) => {
    const { accountId } = ownerOf(request);
    const records = await hubOf(app).services.assistants.list(accountId);
    return { assistants: await Promise.all(records.map((record) => viewOf(accountId, record.id))) };
  });

  app.post('/', async (request, reply) => {
    const { accountId } = ownerOf(request);
    const { input, secrets } = fromOwnerWrite(validateAssistantAdminBody('assistantCreate', request.body));
    const record = await createAssistant(app.diosc, accountId, input, secrets);
    return reply.status(201).send({ assistant: await viewOf(accountId, record.id) });
  });

  app.get('/:id', async (request) => {
    const shown = await ownedAssistant(app, request);
    return { assistant: assistantView(shown, shown.secrets) };
  });

  app.patch('/:id', async (request) => {
    const { accountId } = ownerOf(request);
    const body = validateAssistantAdminBody('assistantUpdate', request.body);
    const current = await ownedAssistant(app, request);
    const { input, secrets } = fromOwnerWrite(body);
    await updateAssistant(app.diosc, accountId, current.id, input, secrets);
    return { assistant: await viewOf(accountId, current.id) };
  });

  app.delete('/:id', async (request) => {
    const { accountId } = ownerOf(request);
    const current = await ownedAssistant(app, request);
    return { id: await deleteAssistant(app.diosc, accountId, current.id), deleted: true };
  });
}
