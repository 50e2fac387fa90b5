import type { Ajv, ValidateFunction } from 'ajv';

/**
 * Validators compiled on first use, each once. Compiling every schema as its module loads cost the
 * server's start about 0.3 s (ajv generates and evaluates code per schema), for bodies and tools
 * most runs never see; the protocol tests compile every one of them (`compileAll`).
 */
export function lazyValidators<K extends string>(
  ajv: Ajv,
  schemas: Readonly<Record<K, object>>,
): { get(name: K): ValidateFunction; compileAll(): void } {
  const compiled = new Map<K, ValidateFunction>();
  const get = (name: K) => {
    let validate = compiled.get(name);
    if (!validate) {
      validate = ajv.compile(schemas[name]);
      compiled.set(name, validate);
    }
    return validate;
  };
  return {
    get,
    compileAll: () => {
      for (const name of Object.keys(schemas) as K[]) get(name);
    },
  };
}
