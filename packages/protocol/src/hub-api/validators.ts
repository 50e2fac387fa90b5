import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { DioscError } from '../errors/diosc-error.js';
import type { ConsensusDecision } from './consensus.js';
import type { InterruptAnswer } from './interrupts.js';
import { checkPageBounds } from './page-bounds.js';
import { HUB_BODY_SCHEMAS, type HubBodyName } from './schemas.js';
import type { OpenSessionRequest, SendMessageRequest } from './sessions.js';

interface HubBodies {
  emptyBody: Record<string, never>;
  openSession: OpenSessionRequest;
  sendMessage: SendMessageRequest;
  interruptAnswer: InterruptAnswer;
  consensusDecision: ConsensusDecision;
}

const ajv = new Ajv({ allErrors: false, strict: true, allowUnionTypes: true });
const compiled = new Map<HubBodyName, ValidateFunction>(
  Object.entries(HUB_BODY_SCHEMAS).map(([name, schema]) => [name as HubBodyName, ajv.compile(schema)]),
);

export function describeSchemaErrors(errors: ErrorObject[] | null | undefined, root = 'body'): string {
  const first = errors?.[0];
  if (!first) return `The ${root} does not match its schema.`;
  const where = first.instancePath === '' ? root : `${root}${first.instancePath.replaceAll('/', '.')}`;
  const extra =
    first.keyword === 'additionalProperties'
      ? ` (${String((first.params as { additionalProperty?: unknown }).additionalProperty)})`
      : '';
  return `${where} ${first.message ?? 'is invalid'}${extra}.`;
}

/** Validates a hub request body; throws `invalid_input` with where and what. Never mutates it. */
export function validateHubBody<N extends HubBodyName>(name: N, body: unknown): HubBodies[N] {
  const validate = compiled.get(name)!;
  if (!validate(body)) throw new DioscError('invalid_input', describeSchemaErrors(validate.errors));
  if (name === 'interruptAnswer') {
    const answer = body as Record<string, unknown>;
    if ('result' in answer === 'error' in answer)
      throw new DioscError('invalid_input', 'Give exactly one of `result` or `error`.');
  }
  if (name === 'sendMessage' || name === 'interruptAnswer') {
    checkPageBounds(body as SendMessageRequest, (schema) => {
      toolAjv.compile(schema);
      // Only whether it compiles is asked here: ajv would otherwise keep every page's schema.
      toolAjv.removeSchema(schema);
    });
  }
  return body as HubBodies[N];
}

/**
 * Compiles a tool's JSON Schema (a declared browser tool, an intent, an MCP server tool) into a
 * validator; a schema ajv cannot compile is refused as `invalid_input`.
 */
export function compileToolSchema(schema: Record<string, unknown>): (value: unknown) => string | undefined {
  let validate: ValidateFunction;
  try {
    validate = toolAjv.compile(schema);
  } catch (error) {
    throw new DioscError('invalid_input', `The tool schema is not valid JSON Schema: ${String(error)}`);
  }
  return (value) => (validate(value) ? undefined : describeSchemaErrors(validate.errors, 'arguments'));
}

/** Tool schemas come from hosts and MCP servers: lenient about unknown keywords, never strict mode. */
const toolAjv = new Ajv({ allErrors: false, strict: false, allowUnionTypes: true, validateSchema: true });
