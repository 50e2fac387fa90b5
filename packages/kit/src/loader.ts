// The `<script async>` build's entry: installs `window.diosc`, starts it from the tag's `data-*`
// attributes when it has them, and replays the snippet's queue.
import { initFromScript } from './init-from-script.js';
import { installPageDiosc } from './page-diosc.js';

installPageDiosc(initFromScript(globalThis.document?.currentScript as HTMLScriptElement | null));
