/** Compiled validators: a subpath, so browser bundles that only need descriptors stay free of ajv. */

export { validateAssistantAdminBody } from './assistant-admin/validators.js';
export { isFunctionName, isValidOutput, validateCall, validateInput } from './catalog/validators.js';
export { compileToolSchema, validateHubBody } from './hub-api/validators.js';
export {
  compileForeignSchema,
  type ForeignSchemaCheck,
  foreignSchemaCacheSize,
} from './schema/compile-foreign-schema.js';
export { describeSchemaErrors } from './schema/describe-schema-errors.js';
export { FOREIGN_SCHEMA_FORMATS, FOREIGN_SCHEMA_LIMITS } from './schema/foreign-schema-limits.js';
