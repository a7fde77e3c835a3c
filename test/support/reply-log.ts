// Every reply a secret scan saw, kept as text so a key can be looked for in its headers and body.

export type Seen = { where: string; status: number; headers: string; body: string };

export type ReplyLog = {
  seen: Seen[];
  /** The statuses of the replies kept so far. */
  statuses(): Set<number>;
  /** Keeps one reply: where it came from, its status, headers (a Headers or a plain object) and body. */
  record(
    where: string,
    status: number,
    headers: Headers | Record<string, unknown>,
    body: string | Buffer,
  ): void;
  /** The replies whose body or headers hold `needle`, as "<where> body" / "<where> headers". */
  holding(needle: string): string[];
};

export function replyLog(): ReplyLog {
  const seen: Seen[] = [];
  return {
    seen,
    statuses: () => new Set(seen.map((s) => s.status)),
    record(where, status, headers, body) {
      const text =
        headers instanceof Headers ? JSON.stringify([...headers.entries()]) : JSON.stringify(headers);
      seen.push({
        where,
        status,
        headers: text,
        body: typeof body === 'string' ? body : body.toString('latin1'),
      });
    },
    holding(needle) {
      return seen.flatMap((s) => [
        ...(s.body.includes(needle) ? [`${s.where} body`] : []),
        ...(s.headers.includes(needle) ? [`${s.where} headers`] : []),
      ]);
    },
  };
}
