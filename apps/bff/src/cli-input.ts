import { type ParseArgsOptionsConfig, parseArgs } from 'node:util';

// What the command line reads from its user: its words and flags, and passwords and API keys,
// never echoed.

/** A command's flags (`options`) and the words among them; an unknown flag is a usage error. */
export function commandArgs<O extends ParseArgsOptionsConfig>(argv: string[], options: O) {
  return parseArgs({ args: argv, allowPositionals: true as const, options });
}

/** A mistake in how the command was called: the usage follows the message. */
export class UsageError extends Error {}

/**
 * One line of secret input: from a pipe (the first line), or typed on a terminal without echo.
 */
export async function readSecretLine(prompt: string): Promise<string> {
  const stdin = process.stdin;
  if (!stdin.isTTY) {
    let text = '';
    for await (const chunk of stdin) text += chunk;
    return text.replace(/\r?\n$/, '').split(/\r?\n/)[0] ?? '';
  }
  process.stderr.write(prompt);
  stdin.setRawMode(true);
  stdin.resume();
  stdin.setEncoding('utf8');
  return new Promise((resolve, reject) => {
    let value = '';
    const onData = (key: string) => {
      for (const ch of key) {
        if (ch === '\r' || ch === '\n') {
          stdin.setRawMode(false);
          stdin.pause();
          stdin.off('data', onData);
          process.stderr.write('\n');
          resolve(value);
          return;
        }
        if (ch === '\u0003') {
          stdin.setRawMode(false);
          reject(new UsageError('cancelled'));
          return;
        }
        if (ch === '\u007f') value = value.slice(0, -1);
        else value += ch;
      }
    };
    stdin.on('data', onData);
  });
}

/** A flag's value, or a UsageError naming the flag. */
export function required(value: string | undefined, flag: string): string {
  if (value === undefined || value.trim() === '') throw new UsageError(`--${flag} is required`);
  return value;
}
