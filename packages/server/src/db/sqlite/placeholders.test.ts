import { describe, expect, it } from 'vitest';
import { toSqlitePlaceholders } from './placeholders.ts';

describe('placeholders written once, bound by number on SQLite', () => {
  it('turns $n into ?n, keeping the number so repeated and reordered placeholders bind right', () => {
    expect(toSqlitePlaceholders('SELECT * FROM t WHERE a = $2 AND b = $1 OR c = $2')).toBe(
      'SELECT * FROM t WHERE a = ?2 AND b = ?1 OR c = ?2',
    );
    expect(toSqlitePlaceholders('VALUES ($1,$10,$11)')).toBe('VALUES (?1,?10,?11)');
  });

  it('leaves string literals, quoted identifiers and comments alone', () => {
    const sql = `SELECT '$1 it''s', "col$2", x -- $3 ?\n /* $4 ? */ FROM t WHERE y = $1`;
    expect(toSqlitePlaceholders(sql)).toBe(
      `SELECT '$1 it''s', "col$2", x -- $3 ?\n /* $4 ? */ FROM t WHERE y = ?1`,
    );
  });

  it('leaves a dollar inside an identifier alone', () => {
    expect(toSqlitePlaceholders('SELECT a$1 FROM t WHERE b = $1')).toBe('SELECT a$1 FROM t WHERE b = ?1');
  });

  it('refuses SQLite-only placeholders, so a statement cannot be written for one engine only', () => {
    expect(() => toSqlitePlaceholders('SELECT * FROM t WHERE a = ?')).toThrow(/\$1…\$n/);
    expect(() => toSqlitePlaceholders('SELECT * FROM t WHERE a = $x')).toThrow(/\$1…\$n/);
  });
});
