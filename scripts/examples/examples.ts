import { fileURLToPath } from 'node:url';
import type { ScriptedCall, ScriptedStep } from '@diosc/server/scripted';
import {
  NORTHWIND_MODEL_ID,
  NORTHWIND_PHRASES,
  northwindScript,
} from '../../examples/northwind/demo/northwind-script.js';
import { PLYNTH_MODEL_ID, PLYNTH_PHRASES, plynthScript } from '../../examples/plynth/demo/plynth-script.js';

/** What the runner and the end-to-end tests need to know about one worked example. */
export interface ExampleDefinition {
  name: string;
  title: string;
  /** The example's folder: `assistant.yaml`, `dist/` after `npm run build`. */
  dir: string;
  /** Where `npm run example` serves the example and its hub (DIOSC_EXAMPLE_PORT / DIOSC_EXAMPLE_HUB_PORT override). */
  sitePort: number;
  hubPort: number;
  scriptedModelId: string;
  /** The scripted model's script: what answers when no model key is set. */
  script(call: ScriptedCall): ScriptedStep;
  phrases: readonly string[];
  tutorial: string;
}

const dir = (name: string) => fileURLToPath(new URL(`../../examples/${name}/`, import.meta.url));

export const EXAMPLES: Record<'northwind' | 'plynth', ExampleDefinition> = {
  northwind: {
    name: 'northwind',
    title: 'Northwind — a storefront the assistant navigates',
    dir: dir('northwind'),
    sitePort: 5173,
    hubPort: 3101,
    scriptedModelId: NORTHWIND_MODEL_ID,
    script: northwindScript,
    phrases: NORTHWIND_PHRASES,
    tutorial: 'docs/tutorials/northwind.md',
  },
  plynth: {
    name: 'plynth',
    title: 'Plynth — a diagram editor with approval-gated changes',
    dir: dir('plynth'),
    sitePort: 5174,
    hubPort: 3102,
    scriptedModelId: PLYNTH_MODEL_ID,
    script: plynthScript,
    phrases: PLYNTH_PHRASES,
    tutorial: 'docs/tutorials/plynth.md',
  },
};

export function isExampleName(name: unknown): name is keyof typeof EXAMPLES {
  return typeof name === 'string' && Object.hasOwn(EXAMPLES, name);
}
