// `npm run pack [dir]`: the publishable packages' tarballs in dir (default: dist/packages/).
import { resolve } from 'node:path';
import { packPackages } from './pack-packages.js';

const tarballs = await packPackages(resolve(process.argv[2] ?? 'dist/packages'));
for (const tarball of Object.values(tarballs)) console.log(tarball);
