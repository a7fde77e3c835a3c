// The Review Collection contract. Subpath imports (`@review-desk/shared/send`) keep the
// dashboard's first load small; this index is for servers and tests.
export * from './analytics.ts';
export * from './bff.ts';
export * from './bulk.ts';
export * from './client.ts';
export * from './dev.ts';
export * from './envelope.ts';
export * from './errors.ts';
export * from './fan-out.ts';
export * from './frequency-cap.ts';
export * from './limits.ts';
export * from './location-overview.ts';
export * from './locations.ts';
export * from './paging.ts';
export * from './phone.ts';
export * from './query.ts';
export * from './quiet-hours.ts';
export * from './requests.ts';
export * from './reviews.ts';
export * from './scopes.ts';
export * from './send.ts';
export * from './settings.ts';
export * from './settings-test.ts';
export * from './sms-segments.ts';
export * from './time.ts';
