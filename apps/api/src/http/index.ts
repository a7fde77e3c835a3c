export * from './errors.ts';
export * from './middleware.ts';
