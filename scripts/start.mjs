// `npm start`: install what is missing, build the portal, and run the server (SQLite under .data/).
import { ensureDependencies, must } from './lib.mjs';

ensureDependencies();
must('npm', ['run', 'build', '--if-present', '--workspaces']);
must('node', ['--import', 'tsx', 'packages/server/src/main.ts'], { stdio: 'inherit' });
