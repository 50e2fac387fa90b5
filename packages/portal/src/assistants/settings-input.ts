import {
  ASSISTANT_LIMIT_RANGES,
  type AssistantLimits,
  type AssistantWrite,
  type ModelProvider,
} from '@diosc/protocol';
import { MIB, UPLOAD_MAX_MIB } from './uploads-section.js';
import { integerProblem, type Problem, parseOrigins } from './validation.js';

export type Problems = Partial<Record<string, Problem | string>>;

/** The hub's defaults, shown in a new assistant's form. */
const DEFAULTS: AssistantLimits = {
  maxStepsPerTurn: 12,
  messagesPerMinute: 20,
  interruptTimeoutMs: 120_000,
  consensusTimeoutMs: 600_000,
  sessionTtlMs: 86_400_000,
};

/** How the owner types each limit: milliseconds as seconds or minutes. */
const UNITS: Record<keyof AssistantLimits, number> = {
  maxStepsPerTurn: 1,
  messagesPerMinute: 1,
  interruptTimeoutMs: 1000,
  consensusTimeoutMs: 1000,
  sessionTtlMs: 60_000,
};

/** Each limit with its bounds in the owner's units, from the hub's own ranges (`@diosc/protocol`). */
export const LIMITS = (Object.keys(UNITS) as (keyof AssistantLimits)[]).map((key) => ({
  key,
  unit: UNITS[key],
  min: Math.ceil(ASSISTANT_LIMIT_RANGES[key].minimum / UNITS[key]),
  max: Math.floor(ASSISTANT_LIMIT_RANGES[key].maximum / UNITS[key]),
  default: DEFAULTS[key],
}));

/**
 * The settings form's fields checked and turned into the create or PATCH body — or the problem of
 * each refused field, by its id. `creating` leaves empty instructions out (the hub's default).
 */
export function readSettings(
  data: FormData,
  provider: ModelProvider,
  creating: boolean,
): { input: AssistantWrite & { name: string } } | { problems: Problems } {
  const text = (name: string) => String(data.get(name) ?? '');
  const problems: Problems = {};
  const name = text('name').trim();
  if (name === '') problems.name = { key: 'nameEmpty' };
  else if (name.length > 80) problems.name = { key: 'tooLong', params: { max: 80 } };
  const instructions = text('instructions');
  if (instructions.length > 20_000) problems.instructions = { key: 'tooLong', params: { max: 20_000 } };
  const modelId = text('modelId').trim();
  // `auto` takes no id and `scripted` without one is the demo model: the server fills both in.
  const idOptional = provider === 'auto' || provider === 'scripted';
  if (modelId === '' && !idOptional) problems.modelId = { key: 'modelIdEmpty' };
  else if (modelId.length > 128) problems.modelId = { key: 'tooLong', params: { max: 128 } };
  const baseUrl = text('baseUrl').trim();
  if (provider === 'openai-compatible' && !/^https?:\/\/\S+$/.test(baseUrl))
    problems.baseUrl = { key: 'baseUrl' };
  const key = text('providerKey');
  if (key.length > 512) problems.providerKey = { key: 'tooLong', params: { max: 512 } };
  const origins = parseOrigins(text('origins'));
  if (origins.problems[0]) problems.origins = origins.problems[0];
  const limits: Partial<AssistantLimits> = {};
  for (const limit of LIMITS) {
    const value = text(limit.key);
    const found = integerProblem(value, limit.min, limit.max);
    if (found) problems[limit.key] = found;
    else limits[limit.key] = Number(value) * limit.unit;
  }
  const uploadsEnabled = data.get('uploadsEnabled') !== null;
  const uploadTypes = data.getAll('uploadTypes').map(String);
  if (uploadsEnabled && uploadTypes.length === 0) problems['upload-types'] = { key: 'uploadTypesEmpty' };
  const uploadMax = text('uploadMaxMiB');
  const uploadMaxProblem = integerProblem(uploadMax, 1, UPLOAD_MAX_MIB);
  if (uploadMaxProblem) problems['upload-max'] = uploadMaxProblem;
  if (Object.keys(problems).length > 0) return { problems };
  return {
    input: {
      name,
      ...(instructions.trim() || !creating ? { instructions } : {}),
      model: {
        provider,
        ...(modelId && provider !== 'auto' ? { id: modelId } : {}),
        ...(provider === 'openai-compatible' ? { baseUrl } : {}),
      },
      allowedOrigins: origins.origins,
      outsideLinks: data.get('outsideLinks') !== null,
      files: { enabled: uploadsEnabled, allowedTypes: uploadTypes, maxFileBytes: Number(uploadMax) * MIB },
      limits,
      ...(key ? { providerKey: key } : {}),
    },
  };
}
