import { useReactRouterNavigation } from '@diosc/react/react-router';
import { Link, Outlet } from 'react-router';

/** The layout: stays mounted across routes, so the assistant's navigation is wired here. */
export function Shell() {
  useReactRouterNavigation();
  return (
    <>
      <nav>
        <Link to="/react/orders">Orders</Link> <Link to="/react/reports">Reports</Link>
      </nav>
      <Outlet />
    </>
  );
}
