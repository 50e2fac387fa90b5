import { DioscError } from '../errors/diosc-error.js';
import { PAGE_LIMITS, type PageRegistry, type PageSnapshot } from './page.js';

/** Compiles a foreign schema with its cost bounded, or throws `invalid_input` starting with `subject`. */
type Compiles = (schema: Record<string, unknown>, subject: string) => unknown;

/**
 * The bounds of `PAGE_LIMITS` a JSON Schema cannot state: a snapshot's free-form `data` and each
 * intent's `schema` as JSON text (measured as the kit measures them: `JSON.stringify(…).length`),
 * and an intent schema the bounded compile accepts (its limits are named in the refusal). The kit
 * keeps to them before it sends; a client that does not is refused here (`invalid_input`), before
 * anything is stored — not accepted and then silently left out of the model's tools.
 */
export function checkPageBounds(
  page: { snapshot?: PageSnapshot; registry?: PageRegistry },
  compile: Compiles,
): void {
  if (page.snapshot?.data !== undefined) {
    const length = JSON.stringify(page.snapshot.data).length;
    if (length > PAGE_LIMITS.snapshotDataMaxBytes)
      throw new DioscError(
        'invalid_input',
        `body.snapshot.data is ${length} characters as JSON; at most ${PAGE_LIMITS.snapshotDataMaxBytes} are allowed.`,
      );
  }
  for (const [index, intent] of (page.registry?.intents ?? []).entries()) {
    const where = `body.registry.intents[${index}].schema`;
    const text = JSON.stringify(intent.schema);
    if (text.length > PAGE_LIMITS.schemaMaxBytes)
      throw new DioscError('invalid_input', `${where} is over ${PAGE_LIMITS.schemaMaxBytes} bytes as JSON.`);
    compile(intent.schema, where);
  }
}
