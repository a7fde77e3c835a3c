import { parseArgs } from 'node:util';

/**
 * The command line of a benchmark script: `numbers` are the options that take a number (`--rows
 * 1000`), with their defaults; `words` the options that take text and have none. An option not
 * named is refused.
 */
export function benchArgs<N extends Record<string, number>, W extends string = never>(
  numbers: N,
  words: readonly W[] = [],
): { [K in keyof N]: number } & { [K in W]?: string } {
  const options: Record<string, { type: 'string'; default?: string }> = {};
  for (const [name, value] of Object.entries(numbers))
    options[name] = { type: 'string', default: String(value) };
  for (const name of words) options[name] = { type: 'string' };
  const { values } = parseArgs({ options });
  const args: Record<string, unknown> = { ...values };
  for (const name of Object.keys(numbers)) args[name] = Number(values[name]);
  return args as { [K in keyof N]: number } & { [K in W]?: string };
}
