import { Outlet } from 'react-router-dom';

/** No header, sidebar or footer: sign-in and error pages. */
export function BareLayout() {
  return (
    <main className="bare-layout">
      <Outlet />
    </main>
  );
}
