/**
 * `@diosc/react`: the page's kit (`@diosc/kit`) from React components.
 *
 * @example
 * <DioscProvider hubUrl="https://hub.example" publishableKey="pk_live_1234abcd">
 *   <App />
 * </DioscProvider>
 * // in a component: useDioscTool('highlight_row', ({ id }) => ({ highlighted: id }));
 */
export type { DioscProviderProps } from './diosc-provider.js';
export { DioscProvider } from './diosc-provider.js';
export { useBrowserAdapter } from './use-browser-adapter.js';
export { useDioscTool } from './use-diosc-tool.js';
export { useNavigationHandler } from './use-navigation-handler.js';
