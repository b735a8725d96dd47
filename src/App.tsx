import { RouterProvider } from 'react-router-dom';
import { createRouter } from './router';

const router = createRouter();

// TanStack Query's provider is in the signed-in layout (layout/BackendLayout.tsx): only the
// signed-in screens read server state through it.
export function App() {
  return <RouterProvider router={router} />;
}
