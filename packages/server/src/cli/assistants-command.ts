import { parseArgs } from 'node:util';
import { DioscError } from '@diosc/protocol';
import { createAssistant, updateAssistant } from '../hub/assistant-admin/assistant-admin.js';
import { readAssistantsFile, readSpecFile } from '../hub/assistant-admin/assistants-file.js';
import { hubServicesOf } from '../hub/hub-services-of.js';
import { openLocalApp } from './local-app.js';
import { ASSISTANTS_USAGE } from './usage.js';

const PROVIDERS = ['auto', 'scripted', 'openai', 'anthropic', 'openai-compatible'];

/** The assistant input the flags describe; a `--file` gives the base and flags override it. */
function inputFrom(values: Record<string, string | boolean | string[] | undefined>, env: NodeJS.ProcessEnv) {
  const input: Record<string, unknown> = {};
  if (typeof values.file === 'string') {
    const [first, ...more] = readAssistantsFileOrObject(values.file);
    if (more.length > 0)
      throw new DioscError(
        'invalid_input',
        '--file names one assistant here; DIOSC_ASSISTANTS takes a list.',
      );
    Object.assign(input, first);
  }
  if (typeof values.name === 'string') input.name = values.name;
  if (typeof values.instructions === 'string') input.instructions = values.instructions;
  if (Array.isArray(values.origin)) input.allowedOrigins = values.origin;
  if (typeof values.model === 'string') {
    const [provider = '', id] = values.model.split(':');
    if (!PROVIDERS.includes(provider))
      throw new DioscError(
        'invalid_input',
        `--model takes provider:id with provider one of ${PROVIDERS.join(', ')}.`,
      );
    input.model = {
      provider,
      ...(id ? { id } : {}),
      ...(typeof values['base-url'] === 'string' ? { baseUrl: values['base-url'] } : {}),
    };
  }
  if (typeof values['provider-key-env'] === 'string') {
    const key = env[values['provider-key-env']];
    if (!key)
      throw new DioscError(
        'invalid_input',
        `The environment variable ${values['provider-key-env']} is not set.`,
      );
    input.secrets = { providerKey: key };
  }
  return input;
}

/** A spec file for one assistant: a bare object, or a list with exactly one entry. */
function readAssistantsFileOrObject(path: string): Record<string, unknown>[] {
  const parsed = readSpecFile(path);
  if (parsed && typeof parsed === 'object' && !Array.isArray(parsed) && !('assistants' in parsed)) {
    if ('secrets' in parsed)
      throw new DioscError('invalid_input', 'Secrets do not belong in a spec file; use --provider-key-env.');
    return [parsed as Record<string, unknown>];
  }
  return readAssistantsFile(path);
}

/** `diosc assistants …`: the hub's assistants on the local store. Secrets are shown only as "set". */
export async function assistantsCommand(
  argv: string[],
  out: (line: string) => void,
  env = process.env,
): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      file: { type: 'string' },
      origin: { type: 'string', multiple: true },
      model: { type: 'string' },
      'base-url': { type: 'string' },
      instructions: { type: 'string' },
      'provider-key-env': { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  const [action, target] = positionals;
  if (!action || !['create', 'list', 'show', 'update', 'delete'].includes(action))
    throw new DioscError('invalid_input', `Usage:\n${ASSISTANTS_USAGE}`);
  if (['show', 'update', 'delete'].includes(action) && !target)
    throw new DioscError(
      'invalid_input',
      `Give the assistant's id or name: diosc assistants ${action} <id|name>`,
    );
  const local = await openLocalApp(env);
  try {
    const { diosc, accountId } = local;
    const assistants = hubServicesOf(diosc).assistants;
    if (action === 'create' || action === 'update') {
      const input = inputFrom(values, env);
      const record =
        action === 'create'
          ? await createAssistant(diosc, accountId, input)
          : await updateAssistant(diosc, accountId, target!, input);
      if (values.json) return out(JSON.stringify(await assistants.show(accountId, record.id)));
      out(`${action === 'create' ? 'Created' : 'Updated'} assistant ${record.id} "${record.config.name}"`);
      out(`  Publishable key: ${record.publishableKey}`);
      out(`  Allowed origins: ${record.config.allowedOrigins.join(', ') || '(none yet: add --origin)'}`);
      out(`  Model:           ${record.config.model.provider}:${record.config.model.id}`);
      return;
    }
    if (action === 'list') {
      const list = await assistants.list(accountId);
      if (values.json) return out(JSON.stringify(list));
      if (list.length === 0)
        return out('No assistants yet. Create one with: diosc assistants create --name …');
      for (const record of list) {
        out(
          `${record.id}  ${record.config.name}  ${record.publishableKey}  ${record.config.model.provider}:${record.config.model.id}  ${record.config.allowedOrigins.join(',')}`,
        );
      }
      return;
    }
    if (action === 'show') {
      const shown = await assistants.show(accountId, target!);
      return out(JSON.stringify(shown, null, values.json ? undefined : 2));
    }
    await assistants.remove(accountId, target!);
    out(`Deleted assistant "${target}" and its conversations.`);
  } finally {
    await local.close();
  }
}
