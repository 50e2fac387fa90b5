// The `<script async>` build's entry: installs `window.diosc` and replays the snippet's queue.
import { installPageDiosc } from './page-diosc.js';

installPageDiosc();
