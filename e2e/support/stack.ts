import type { Role } from '@review-desk/shared/bff';

// Where the system under test runs (set by playwright.config.ts) and who can sign in to it.

export const BASE_URL = process.env.E2E_BASE_URL ?? 'http://127.0.0.1:18080';
export const API_URL = process.env.E2E_API_URL ?? 'http://127.0.0.1:14000';
export const PASSWORD = process.env.E2E_PASSWORD ?? '';

/** The demo users `npm start` creates, all with DEMO_PASSWORD. */
export const USERS: Record<Role, string> = {
  owner: 'owner@example.com',
  manager: 'manager@example.com',
  staff: 'staff@example.com',
};
