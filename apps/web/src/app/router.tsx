import { Suspense } from 'react';
import { Loader } from '../components/loader.tsx';
import { OLD_INBOX_PATH } from '../config/paths.ts';
import { ROUTER_BASENAME } from '../lib/location.ts';
import { BrowserRouter, Navigate, Route, Routes } from '../lib/router.tsx';
import { AuthRedirect } from './auth-redirect.tsx';
import { NotFound } from './not-found.tsx';
import { LANDING, PAGES, pages } from './pages.ts';
import { RequirePermission } from './require-permission.tsx';
import { RequireSession } from './require-session.tsx';

// Routes from the table of pages (pages.ts). The permission check runs before a page's chunk is
// requested, so staff never download Analytics.

export function AppRouter() {
  return (
    <BrowserRouter basename={ROUTER_BASENAME}>
      <AuthRedirect />
      <Suspense
        fallback={
          <div className="center-page">
            <Loader aria-label="Loading" />
          </div>
        }
      >
        <Routes>
          {pages.map((page) =>
            page.access === 'public' ? (
              <Route key={page.name} path={page.path} element={<page.Component title={page.title} />} />
            ) : null,
          )}
          <Route element={<RequireSession />}>
            <Route index element={<Navigate to={PAGES[LANDING].path} replace />} />
            <Route path={OLD_INBOX_PATH} element={<Navigate to={PAGES.inbox.path} replace />} />
            {pages.map((page) =>
              page.access === 'public' ? null : (
                <Route
                  key={page.name}
                  path={page.path}
                  element={
                    <RequirePermission permission={page.access} page={page.title}>
                      <page.Component title={page.title} />
                    </RequirePermission>
                  }
                />
              ),
            )}
            <Route path="*" element={<NotFound />} />
          </Route>
        </Routes>
      </Suspense>
    </BrowserRouter>
  );
}
