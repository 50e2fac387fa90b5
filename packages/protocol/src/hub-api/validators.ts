import { Ajv } from 'ajv';
import { DioscError } from '../errors/diosc-error.js';
import { compileForeignSchema, type ForeignSchemaCheck } from '../schema/compile-foreign-schema.js';
import { describeSchemaErrors } from '../schema/describe-schema-errors.js';
import { lazyValidators } from '../schema/lazy-validators.js';
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
export const hubBodyValidators = lazyValidators<HubBodyName>(ajv, HUB_BODY_SCHEMAS);

/** Validates a hub request body; throws `invalid_input` with where and what. Never mutates it. */
export function validateHubBody<N extends HubBodyName>(name: N, body: unknown): HubBodies[N] {
  const validate = hubBodyValidators.get(name);
  if (!validate(body)) throw new DioscError('invalid_input', describeSchemaErrors(validate.errors));
  if (name === 'interruptAnswer') {
    const answer = body as Record<string, unknown>;
    if ('result' in answer === 'error' in answer)
      throw new DioscError('invalid_input', 'Give exactly one of `result` or `error`.');
  }
  if (name === 'sendMessage' || name === 'interruptAnswer') {
    checkPageBounds(body as SendMessageRequest, compileForeignSchema);
  }
  return body as HubBodies[N];
}

/**
 * Compiles a tool's JSON Schema (a declared browser tool, an intent, an MCP server tool) into a
 * validator with its cost bounded (see `compileForeignSchema`); a schema that may not be compiled
 * is refused as `invalid_input`.
 */
export function compileToolSchema(schema: Record<string, unknown>): ForeignSchemaCheck {
  return compileForeignSchema(schema);
}
