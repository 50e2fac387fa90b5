import { fileURLToPath } from 'node:url';

/**
 * packages/server/, found from this module's own URL. The source file sits one folder below it
 * (src/) and so does every chunk of the build (dist/, flat): the same relative URL holds whether
 * the server runs from TypeScript (tests, tsx) or from `npm run build`'s JavaScript, where a path
 * written relative to a nested source folder would point outside the repository.
 */
export const SERVER_PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
