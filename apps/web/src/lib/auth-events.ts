// One signal for "the BFF says this session is over": the fetch wrapper raises it, the router
// listens and sends the user to sign in, with the way back to where they were.

type Listener = () => void;
const listeners = new Set<Listener>();

export function onAuthRequired(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function notifyAuthRequired(): void {
  for (const listener of listeners) listener();
}
