/** Compiled validators: a subpath, so browser bundles that only need descriptors stay free of ajv. */

export { validateAssistantAdminBody } from './assistant-admin/validators.js';
export { isFunctionName, isValidOutput, validateCall, validateInput } from './catalog/validators.js';
export { compileToolSchema, describeSchemaErrors, validateHubBody } from './hub-api/validators.js';
