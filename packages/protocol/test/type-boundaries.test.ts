import { dirname, join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The type boundaries of `tsc -b` (each package's own tsconfig): code in a browser package that
 * uses a Node global, or server code that uses the DOM, does not type-check. Each case compiles one
 * probe file under the package's real compiler options and expects exactly the missing names.
 */
const root = new URL('../../../', import.meta.url).pathname;

function diagnose(project: string, source: string): string[] {
  const configPath = join(root, project, 'tsconfig.json');
  const { config, error } = ts.readConfigFile(configPath, ts.sys.readFile);
  if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'));
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, dirname(configPath));
  const probe = join(root, project, 'src', '__boundary-probe__.ts');
  const options = {
    ...parsed.options,
    composite: false,
    declaration: false,
    emitDeclarationOnly: false,
    noEmit: true,
    incremental: false,
  };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  host.readFile = (file) => (file === probe ? source : readFile(file));
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (file) => file === probe || fileExists(file);
  const program = ts.createProgram({ rootNames: [probe], options, host });
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))
    .map((text) => /Cannot find name '([^']+)'/.exec(text)?.[1] ?? text);
}

const NODE_GLOBALS =
  "export const probe = [Buffer.from('x'), process.env, setImmediate, __dirname, require];";
const DOM_GLOBALS = 'export const probe = [document.title, window.location, new HTMLElement()];';
const SHARED = 'export const probe = [new URL("https://x.test"), new TextEncoder(), AbortSignal, fetch];';

describe('type boundaries per package', () => {
  it.each(['packages/protocol', 'packages/webmcp', 'packages/portal'])(
    '%s: a Node global does not type-check',
    (project) => {
      expect(diagnose(project, NODE_GLOBALS)).toEqual([
        'Buffer',
        'process',
        'setImmediate',
        '__dirname',
        'require',
      ]);
    },
  );

  it.each(['packages/protocol', 'packages/server'])('%s: the DOM does not type-check', (project) => {
    expect(diagnose(project, DOM_GLOBALS)).toEqual(['document', 'window', 'HTMLElement']);
  });

  it('the browser packages have the DOM, the server has Node, protocol has only the language', () => {
    expect(diagnose('packages/webmcp', DOM_GLOBALS)).toEqual([]);
    expect(diagnose('packages/portal', SHARED)).toEqual([]);
    expect(diagnose('packages/server', `${NODE_GLOBALS}\nexport const web = [fetch, AbortSignal];`)).toEqual(
      [],
    );
    expect(diagnose('packages/protocol', 'export const probe = [JSON, Symbol.for("x"), new Map()];')).toEqual(
      [],
    );
  });
});
