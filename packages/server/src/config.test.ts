import { describe, expect, it } from 'vitest';
import { startupRefusal } from '../test-support/startup.ts';
import {
  bool,
  configMarkdown,
  defineConfig,
  generatedSection,
  originList,
  parseEnv,
  text,
  trustProxy,
  wholeNumber,
  withGeneratedSection,
} from './config.ts';

const TABLE = defineConfig({
  PORT: { type: wholeNumber(0, 65535), default: '8080', description: 'Port.' },
  NAME: { type: text(), required: true, description: 'A name | with a pipe.' },
  ON: { type: bool(), default: 'false', description: 'A switch.' },
  ORIGINS: { type: originList(), default: '', shown: 'none', description: 'Origins.' },
  OPTIONAL: { type: text(), description: 'Nothing by default.' },
});

const refusal = (env: Record<string, string>) => startupRefusal(() => parseEnv(TABLE, env));

describe('parseEnv', () => {
  it('reads defaults through the same types, treats empty as unset, and says what was set', () => {
    const { values, set } = parseEnv(TABLE, { NAME: ' x ', PORT: '', ON: '1', OTHER: 'y' });
    expect(values).toEqual({ PORT: 8080, NAME: 'x', ON: true, ORIGINS: [], OPTIONAL: undefined });
    expect([...set]).toEqual(['NAME', 'ON']);
  });

  it('stops at a bad or missing variable with one line naming it', () => {
    const missing = refusal({});
    expect(missing.message).toBe('Invalid configuration: NAME is required');
    expect(missing.variable).toBe('NAME');
    expect(refusal({ NAME: 'x', PORT: 'eighty' }).message).toBe(
      'Invalid configuration: PORT must be a whole number from 0 to 65535',
    );
    expect(refusal({ NAME: 'x', ORIGINS: 'https://ok.example, nope' }).message).toMatch(
      /^Invalid configuration: ORIGINS must list exact origins .*"nope"/,
    );
    expect(refusal({ NAME: 'x', ON: 'maybe' }).message).not.toContain('\n');
  });

  it('reads trust proxy settings Express understands', () => {
    const read = (v: string) => trustProxy().parse(v);
    expect([read('true'), read('false'), read('2'), read('loopback, 10.0.0.0/8')]).toEqual([
      true,
      false,
      2,
      'loopback, 10.0.0.0/8',
    ]);
    expect(trustProxy().safeParse('everyone').success).toBe(false);
  });
});

describe('the README table', () => {
  it('lists every variable with its default or what stands for it', () => {
    expect(configMarkdown(TABLE).split('\n')).toEqual([
      '| Variable | Default | Meaning |',
      '| --- | --- | --- |',
      '| `PORT` | `8080` | Port. |',
      '| `NAME` | required | A name \\| with a pipe. |',
      '| `ON` | `false` | A switch. |',
      '| `ORIGINS` | none | Origins. |',
      '| `OPTIONAL` | — | Nothing by default. |',
    ]);
  });

  it('is replaced between its markers and read back', () => {
    const doc = 'before\n<!-- config:x -->\nold\n<!-- /config:x -->\nafter\n';
    const updated = withGeneratedSection(doc, 'x', 'new table');
    expect(updated).toBe('before\n<!-- config:x -->\nnew table\n<!-- /config:x -->\nafter\n');
    expect(generatedSection(updated, 'x')).toBe('new table');
    expect(generatedSection(updated, 'y')).toBeNull();
    expect(() => withGeneratedSection(doc, 'y', '')).toThrow(/markers/);
  });
});
