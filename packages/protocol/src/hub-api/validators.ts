import { Ajv } from 'ajv';
import { DioscError } from '../errors/diosc-error.js';
import { compileForeignSchema, type ForeignSchemaCheck } from '../schema/compile-foreign-schema.js';
import { describeSchemaErrors } from '../schema/describe-schema-errors.js';
import { lazyValidators } from '../schema/lazy-validators.js';
import { type AgUiRunBody, agUiMessageProblem } from './ag-ui-run.js';
import type { ConsensusDecision } from './consensus.js';
import type { InterruptAnswer } from './interrupts.js';
import { PAGE_LIMITS } from './page.js';
import { checkPageBounds } from './page-bounds.js';
import { HUB_BODY_SCHEMAS, type HubBodyName } from './schemas.js';
import type { OpenSessionRequest, SendMessageRequest } from './sessions.js';

interface HubBodies {
  emptyBody: Record<string, never>;
  openSession: OpenSessionRequest;
  sendMessage: SendMessageRequest;
  interruptAnswer: InterruptAnswer;
  consensusDecision: ConsensusDecision;
  agUiRun: AgUiRunBody;
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
  if (name === 'agUiRun') {
    const run = body as AgUiRunBody;
    for (const [index, message] of run.messages.entries()) {
      const problem = agUiMessageProblem(message, index);
      if (problem) throw new DioscError('invalid_input', problem);
    }
    checkClientToolBounds(run);
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

/**
 * An AG-UI run's tools are the page's intents under another name: each one's parameters schema
 * has the same bounds (size as JSON, a bounded compile) as an intent's, refused before anything
 * is stored.
 */
function checkClientToolBounds(body: AgUiRunBody): void {
  for (const [index, tool] of (body.tools ?? []).entries()) {
    if (tool.parameters === undefined) continue;
    const where = `body.tools[${index}].parameters`;
    const text = JSON.stringify(tool.parameters);
    if (text.length > PAGE_LIMITS.schemaMaxBytes)
      throw new DioscError('invalid_input', `${where} is over ${PAGE_LIMITS.schemaMaxBytes} bytes as JSON.`);
    compileForeignSchema(tool.parameters, where);
  }
}
