import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { chromium } from '@playwright/test';
import { afterAll, describe, expect, it } from 'vitest';
import { CHROMIUM_PACKAGE_VERSION, chromiumLaunch, ensureChromium } from '../e2e/support/chromium.ts';
import { waitFor } from './support/stack.ts';

// The browser the browser tests and the dashboard benchmark drive comes from npm alone: unpacked
// from the pinned @sparticuz/chromium, safely when several processes start at once, and it runs
// on this machine without any system browser or library beyond glibc.

const run = promisify(execFile);
const moduleUrl = pathToFileURL(path.resolve(import.meta.dirname, '../e2e/support/chromium.ts')).href;
// A folder with a dot-directory and a space in its path, as in `~/.cache/my projects/…`.
const root = mkdtempSync(path.join(tmpdir(), 'rd-browser-'));
const home = path.join(root, '.cache dir', `chromium-${CHROMIUM_PACKAGE_VERSION}`);

afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Another process unpacking into `home`, that runs the browser the moment it is told it is ready. */
async function unpackInChild(): Promise<{ executablePath: string; unpacked: boolean; version: string }> {
  const script = `
    import { execFileSync } from 'node:child_process';
    import { ensureChromium } from ${JSON.stringify(moduleUrl)};
    const result = await ensureChromium({}, ${JSON.stringify(home)});
    const version = execFileSync(result.executablePath, ['--version'], { encoding: 'utf8' }).trim();
    console.log(JSON.stringify({ ...result, version }));`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
    maxBuffer: 1 << 20,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1)!);
}

describe('the browser from npm', () => {
  it('unpacks once under concurrent starts: every process gets a complete browser, no leftovers', async () => {
    // One starts, two more while it is writing: none may be handed a half-written executable.
    const first = unpackInChild();
    // Its private folder is there: it is writing (or, on a fast machine, already done).
    const started = () =>
      readdirSync(path.dirname(home)).some((name) => name.startsWith(path.basename(home)));
    await waitFor(started, 60_000, 'the first unpacking');
    const results = await Promise.all([first, unpackInChild(), unpackInChild()]);

    const major = CHROMIUM_PACKAGE_VERSION.split('.')[0];
    for (const result of results) {
      expect(result.executablePath).toBe(path.join(home, 'chromium'));
      expect(result.version).toMatch(new RegExp(`^Chromium ${major}\\.`));
    }
    expect(results.filter((r) => r.unpacked).length).toBe(1);
    // Losers threw their copies away; only the browser's folder remains.
    expect(readdirSync(path.dirname(home))).toEqual([path.basename(home)]);

    // Later starts find it in place and do nothing.
    const again = await ensureChromium({}, home);
    expect(again).toMatchObject({ executablePath: path.join(home, 'chromium'), unpacked: false });
  });

  it('launches headless under Playwright with only the package’s libraries and fonts', async () => {
    await ensureChromium({}, home);
    const options = chromiumLaunch({ PATH: process.env.PATH }, home);
    const browser = await chromium.launch(options);
    try {
      const page = await browser.newPage();
      await page.setContent('<p style="font: 16px sans-serif">Review Desk</p>');
      expect(await page.getByText('Review Desk').isVisible()).toBe(true);
      // Only the package's font (Open Sans) is there: every family falls back to it, so text is
      // laid out alike on every machine, whatever fonts it has installed (this one has DejaVu).
      const widths = (await page.evaluate(`(() => {
        const context = document.createElement('canvas').getContext('2d');
        return ['"Open Sans"', 'serif', 'monospace', '"DejaVu Sans Mono"'].map((family) => {
          context.font = '16px ' + family;
          return context.measureText('Review Desk 0123456789').width;
        });
      })()`)) as number[];
      expect(new Set(widths).size).toBe(1);
      expect(browser.version()).toMatch(new RegExp(`^${CHROMIUM_PACKAGE_VERSION.split('.')[0]}\\.`));
    } finally {
      await browser.close();
    }
  });

  it('CHROMIUM_PATH drives another browser as it is, and a wrong one is refused by name', async () => {
    expect(chromiumLaunch({ CHROMIUM_PATH: '/opt/chrome/chrome' }, home)).toEqual({
      executablePath: '/opt/chrome/chrome',
      args: chromiumLaunch({}, home).args,
    });
    await expect(ensureChromium({ CHROMIUM_PATH: '/nowhere/chromium' }, home)).rejects.toThrow(
      'CHROMIUM_PATH=/nowhere/chromium',
    );
  });
});
