/** The JSON an answer's text holds, or `otherwise` when it holds none (a page, plain words, nothing). */
export function jsonOr<T>(text: string, otherwise: T): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return otherwise;
  }
}
