// A workspace package's `exports` point at its TypeScript source (what the workspace, vitest and
// tsc use), so packing or publishing the folder itself would ship a package no one can import.
// The publishable tarball is built by `npm run pack`, which stages dist/ and the published manifest.
console.error(
  `${process.env.npm_package_name}: pack with \`npm run pack\` at the repository root (then \`npm publish <tarball>\`); this folder's exports are its source.`,
);
process.exit(1);
