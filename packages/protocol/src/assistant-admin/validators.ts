import { Ajv } from 'ajv';
import { DioscError } from '../errors/diosc-error.js';
import { describeSchemaErrors } from '../schema/describe-schema-errors.js';
import { lazyValidators } from '../schema/lazy-validators.js';
import { ASSISTANT_ADMIN_BODY_SCHEMAS, type AssistantAdminBodyName } from './schemas.js';
import type {
  AssistantWrite,
  McpCheckRequest,
  SitemapImportRequest,
  SitemapTestRequest,
  TestConnectionRequest,
  ToolsPreviewRequest,
} from './wire.js';

interface AssistantAdminBodies {
  assistantCreate: AssistantWrite & { name: string };
  assistantUpdate: AssistantWrite;
  testConnection: TestConnectionRequest;
  toolsPreview: ToolsPreviewRequest;
  mcpCheck: McpCheckRequest;
  sitemapTest: SitemapTestRequest;
  sitemapImport: SitemapImportRequest;
}

const ajv = new Ajv({ allErrors: false, strict: true, allowUnionTypes: true });
export const assistantAdminValidators = lazyValidators<AssistantAdminBodyName>(
  ajv,
  ASSISTANT_ADMIN_BODY_SCHEMAS,
);

/**
 * Validates an assistant admin request body (an empty body reads as `{}`); throws `invalid_input`
 * naming where and what. Never mutates it.
 */
export function validateAssistantAdminBody<N extends AssistantAdminBodyName>(
  name: N,
  body: unknown,
): AssistantAdminBodies[N] {
  const value = body === undefined ? {} : body;
  const validate = assistantAdminValidators.get(name);
  if (!validate(value)) throw new DioscError('invalid_input', describeSchemaErrors(validate.errors));
  return value as AssistantAdminBodies[N];
}
