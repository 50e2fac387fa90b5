import type { FirstRunResult } from './first-run.js';
import { previewPath } from './hub/embed/embed-snippet.js';
import type { HubServices } from './hub/hub-services.js';

/** What `npm start` knows once it serves, for the lines it prints. */
export interface StartBannerInput {
  /** The one address people open: the public origin, with the port really bound. */
  url: string;
  /** Where the store is, as the operator would name it (a file path, or PostgreSQL). */
  storeLabel: string;
  owner: FirstRunResult;
  /** What `DIOSC_ASSISTANTS` did at this start, when it is set. */
  assistantsFile?: { path: string; created: number; updated: number };
  hub: HubServices;
}

/** How many assistants the banner names; the portal's Assistants page lists them all. */
const ASSISTANTS_SHOWN = 5;

/**
 * The lines `npm start` prints once it serves: where to open the portal, how to sign in, and each
 * assistant (the first run's Demo assistant included) with the address of its live preview, so a
 * first run says where to try one. They go to the terminal only, never through the logger: the
 * first run's password is among them.
 */
export async function startBanner(input: StartBannerInput): Promise<string[]> {
  const { url, owner, hub } = input;
  const lines = ['', `  Diosc is running at ${url}`, `  Store: ${input.storeLabel}`];
  if (owner.generatedPassword) {
    lines.push(`  Sign in as ${owner.email} with password: ${owner.generatedPassword}`);
    lines.push(
      '  (shown once; set DIOSC_OWNER_PASSWORD on first run to choose it, or run `npm run diosc -- reset-password`)',
    );
  } else if (owner.created) {
    lines.push(`  Sign in as ${owner.email} with the password from DIOSC_OWNER_PASSWORD.`);
  } else {
    lines.push(
      `  Sign in as ${owner.email} (password printed on first run; reset with \`npm run diosc -- reset-password\`).`,
    );
  }
  if (input.assistantsFile) {
    const { path, created, updated } = input.assistantsFile;
    lines.push(`  Assistants from ${path}: ${created} created, ${updated} updated`);
  }
  const assistants = await hub.assistants.list(owner.accountId);
  for (const assistant of assistants.slice(0, ASSISTANTS_SHOWN)) {
    const { label } = await hub.modelFor(assistant).catch(() => ({ label: 'model not configured' }));
    lines.push(`  Assistant "${assistant.config.name}": ${assistant.publishableKey} on ${label}`);
    // The preview is an owner page: it opens in the browser that signed in to the portal.
    lines.push(`    Try it (once signed in): ${url}${previewPath(assistant.id)}`);
  }
  return lines;
}
