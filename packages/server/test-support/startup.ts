import { StartupError } from '../src/startup-error.ts';

/** The StartupError `load` refuses with; fails the test when it loads, or throws anything else. */
export function startupRefusal(load: () => unknown): StartupError {
  try {
    load();
  } catch (error) {
    if (error instanceof StartupError) return error;
    throw error;
  }
  throw new Error('expected a configuration error');
}
