import { DioscError } from '../errors/diosc-error.js';
import { PAGE_LIMITS, type PageRegistry, type PageSnapshot } from './page.js';

/** What a compiled intent schema is kept as: nothing but whether it compiled. */
type Compiles = (schema: Record<string, unknown>) => void;

/** A memo of a pure answer (does this schema text compile?), so sharing it across apps is harmless. */
const compiled = new Set<string>();
const COMPILED_KEPT = 2_000;

/**
 * The bounds of `PAGE_LIMITS` a JSON Schema cannot state: a snapshot's free-form `data` and each
 * intent's `schema` as JSON text (measured as the kit measures them: `JSON.stringify(…).length`),
 * and an intent schema a validator can compile. The kit keeps to them before it sends; a client that does not is refused here (`invalid_input`), before anything
 * is stored — not accepted and then silently left out of the model's tools.
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
    if (compiled.has(text)) continue;
    try {
      compile(intent.schema);
    } catch {
      throw new DioscError('invalid_input', `${where} is not a JSON Schema a validator can compile.`);
    }
    // Pages send the same intents turn after turn; a bounded set of texts already compiled.
    if (compiled.size >= COMPILED_KEPT) compiled.clear();
    compiled.add(text);
  }
}
