import { DIALECTS, startHubServer as startOnDialect, type TestDialect } from '@diosc/server/testing';
import { beforeAll, describe } from 'vitest';

export type { HubTestServer } from '@diosc/server/testing';
export { EventStream, HubClient, PAGE_ORIGIN } from '@diosc/server/testing';

let currentDialect: TestDialect = DIALECTS[0]!;

/**
 * A hub suite once per store dialect (SQLite, and PostgreSQL when the test script started one);
 * `startHubServer` inside it opens the store of the suite's dialect.
 */
export function describeOnDialects(title: string, body: (dialect: TestDialect) => void): void {
  describe.each(DIALECTS)(`${title} ($name)`, (dialect) => {
    beforeAll(() => {
      currentDialect = dialect;
    });
    body(dialect);
  });
}

/** `startHubServer` of `@diosc/server/testing`, on the current suite's dialect. */
export function startHubServer(options: Parameters<typeof startOnDialect>[0] = {}) {
  return startOnDialect({ dialect: currentDialect, ...options });
}
