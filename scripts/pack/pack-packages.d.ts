/** The publishable packages, dependencies first (folder under packages/). */
export declare const PUBLISHED: readonly ['protocol', 'webmcp', 'kit'];
export type Published = (typeof PUBLISHED)[number];
type Manifest = Record<string, unknown> & {
  name: string;
  version: string;
  publishConfig?: Record<string, unknown>;
};
/**
 * The manifest as published: the workspace's, with `publishConfig`'s fields in place of its own
 * (npm applies only its registry settings from there, so the stage does it), and without what
 * only the workspace runs (scripts, devDependencies).
 */
export declare function publishedManifest(manifest: Manifest): Manifest;
/**
 * `npm run pack`: every publishable package as the tarball `npm publish <tarball>` would upload.
 * References are built first (`tsc -b`), since a package's emit reads its dependencies' declarations.
 */
export declare function packPackages(outDir: string): Promise<Record<Published, string>>;
