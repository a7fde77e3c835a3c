// Every page is its own chunk, loaded when first visited (or when its nav link is hovered or
// focused). The charts library lives only in the analytics chunk.
export const routeModules = {
  login: () => import('../features/auth/components/login-page.tsx'),
  reviews: () => import('../features/reviews/components/reviews-page.tsx'),
  send: () => import('../features/requests/components/send-page.tsx'),
  requests: () => import('../features/requests/components/recent-requests-page.tsx'),
  analytics: () => import('../features/analytics/components/analytics-page.tsx'),
  users: () => import('../features/users/components/users-page.tsx'),
};
