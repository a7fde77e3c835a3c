import { Center, Loader } from '@mantine/core';
import { Suspense } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { paths } from '../config/paths.ts';
import { AuthRedirect } from './auth-redirect.tsx';
import { NotFound } from './not-found.tsx';
import { RequirePermission } from './require-permission.tsx';
import { RequireSession } from './require-session.tsx';
import { PAGE_PERMISSIONS, routePages } from './route-modules.ts';

// The role check runs before a page's chunk is requested, so staff never download Analytics.

const {
  login: LoginPage,
  reviews: ReviewsPage,
  send: SendPage,
  requests: RecentRequestsPage,
  analytics: AnalyticsPage,
  users: UsersPage,
} = routePages;

export function AppRouter() {
  return (
    // Location updates are urgent, not transitions: a list page's state is its URL, and a second
    // filter change made before a deferred render committed would build on the stale URL.
    <BrowserRouter useTransitions={false}>
      <AuthRedirect />
      <Suspense
        fallback={
          <Center className="center-page">
            <Loader aria-label="Loading" />
          </Center>
        }
      >
        <Routes>
          <Route path={paths.login} element={<LoginPage />} />
          <Route element={<RequireSession />}>
            <Route index element={<Navigate to={paths.reviews} replace />} />
            <Route
              path={paths.reviews}
              element={
                <RequirePermission permission={PAGE_PERMISSIONS.reviews} page="Reviews">
                  <ReviewsPage />
                </RequirePermission>
              }
            />
            <Route
              path={paths.send}
              element={
                <RequirePermission permission={PAGE_PERMISSIONS.send} page="Send a review request">
                  <SendPage />
                </RequirePermission>
              }
            />
            <Route
              path={paths.requests}
              element={
                <RequirePermission permission={PAGE_PERMISSIONS.requests} page="Recent requests">
                  <RecentRequestsPage />
                </RequirePermission>
              }
            />
            <Route
              path={paths.analytics}
              element={
                <RequirePermission permission={PAGE_PERMISSIONS.analytics} page="Analytics">
                  <AnalyticsPage />
                </RequirePermission>
              }
            />
            <Route
              path={paths.users}
              element={
                <RequirePermission permission={PAGE_PERMISSIONS.users} page="Users">
                  <UsersPage />
                </RequirePermission>
              }
            />
            <Route path="*" element={<NotFound />} />
          </Route>
        </Routes>
      </Suspense>
    </BrowserRouter>
  );
}
