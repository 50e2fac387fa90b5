import { render } from 'lit';
import type { AppContext } from './app/app-context.js';
import { createRouter } from './app/router.js';
import { ROUTES } from './app/routes.js';
import { viewFor } from './app/view-for.js';
import { connectAssistant } from './assistant/connect-assistant.js';
import { createCart } from './store/cart.js';
import { createOrders } from './store/orders.js';
import { layout } from './views/layout.js';
import './styles.css';

const root = document.getElementById('app')!;
const router = createRouter(ROUTES);
const app: AppContext = {
  router,
  cart: createCart(),
  orders: createOrders(),
  highlighted: null,
  refresh: () => show(false),
};

let shownUrl = '';
function show(moved: boolean): void {
  const location = router.current();
  const { title, view } = viewFor(app, location);
  document.title = title;
  render(layout(app, view), root);
  if (moved) {
    // A new page: start at its top, and tell screen readers where they are.
    scrollTo({ top: 0 });
    root.querySelector<HTMLElement>('#main')?.focus({ preventScroll: true });
  }
}

router.subscribe(() => {
  const url = location.pathname + location.search;
  const moved = shownUrl !== '' && url !== shownUrl;
  // A highlight belongs to the list it was made on.
  if (url !== shownUrl) app.highlighted = null;
  shownUrl = url;
  show(moved);
});
app.cart.subscribe(app.refresh);
// Another tab changed the cart.
addEventListener('storage', app.refresh);
router.start();
connectAssistant(app);
