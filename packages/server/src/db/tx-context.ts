import { AsyncLocalStorage } from 'node:async_hooks';

// Which transaction the running code is inside. A store holds the database object, not a
// transaction, and its statements still join the caller's transaction: the database looks up
// the innermost open transaction of its own in the async context. Code that did not start inside
// fn (another request, a timer set up earlier) never sees it, so it can never write into someone
// else's transaction or be lost with its rollback.

export type TxScope<Handle> = {
  /** The database object that opened the transaction. */
  readonly owner: object;
  readonly handle: Handle;
  /** False once committed or rolled back: a late callback then runs outside, as it should. */
  active: boolean;
  /** Transactions of other databases the code was already inside (a copy from one to another). */
  readonly parent: TxScope<unknown> | undefined;
  /**
   * Its COMMIT has been sent behind the statements issued so far (transactionTogether): a
   * statement issued now would miss the transaction, so it is refused.
   */
  sealed?: boolean;
  /** Work to do once the transaction has committed (in-process notifications). */
  afterCommit: (() => void)[] | undefined;
};

const storage = new AsyncLocalStorage<TxScope<unknown>>();

/** The open transaction of `owner` the calling code runs inside, if any. */
export function currentScope<Handle>(owner: object): TxScope<Handle> | undefined {
  let scope = storage.getStore();
  while (scope !== undefined) {
    if (scope.owner === owner) {
      if (scope.sealed && scope.active) throw lateStatement();
      return scope.active ? (scope as TxScope<Handle>) : undefined;
    }
    scope = scope.parent;
  }
  return undefined;
}

export function lateStatement(): Error {
  return new Error(
    'A statement was issued after its transaction’s COMMIT: in transactionTogether, issue every statement before the first await',
  );
}

/** A new scope for a transaction of `owner`; `handle` makes the transaction's own handle. */
export function openScope<Handle>(
  owner: object,
  handle: (scope: TxScope<Handle>) => Handle,
): TxScope<Handle> {
  const scope = {
    owner,
    handle: undefined as Handle,
    active: true,
    parent: storage.getStore(),
    afterCommit: undefined,
  };
  scope.handle = handle(scope);
  return scope;
}

export function runInScope<T>(scope: TxScope<unknown>, fn: () => Promise<T>): Promise<T> {
  return storage.run(scope, fn);
}

/** Marks the scope finished and, when it committed, runs what waited for the commit. */
export function closeScope(scope: TxScope<unknown>, committed: boolean): void {
  scope.active = false;
  const after = scope.afterCommit;
  scope.afterCommit = undefined;
  if (committed && after) for (const task of after) task();
}
