import type { Diagram } from '../diagram/diagram.js';

/** The documents a fresh browser starts with. */
export const SAMPLE_DIAGRAMS: readonly Diagram[] = [
  {
    id: 'onboarding',
    title: 'Customer onboarding',
    nodes: [
      { id: 'n1', label: 'Sign-up form', x: 40, y: 40 },
      { id: 'n2', label: 'Verify email', x: 40, y: 140 },
      { id: 'n3', label: 'Draft contract', x: 40, y: 240 },
      { id: 'n4', label: 'Welcome call', x: 40, y: 340 },
    ],
    edges: [
      { id: 'e1', from: 'n1', to: 'n2' },
      { id: 'e2', from: 'n2', to: 'n3' },
      { id: 'e3', from: 'n3', to: 'n4' },
    ],
  },
  {
    id: 'release',
    title: 'Release process',
    nodes: [
      { id: 'n1', label: 'Freeze branch', x: 40, y: 40 },
      { id: 'n2', label: 'Run the tests', x: 40, y: 140 },
      { id: 'n3', label: 'Tag the release', x: 40, y: 240 },
    ],
    edges: [
      { id: 'e1', from: 'n1', to: 'n2' },
      { id: 'e2', from: 'n2', to: 'n3' },
    ],
  },
];
