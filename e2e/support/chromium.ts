import {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
} from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { createBrotliDecompress } from 'node:zlib';

// The browser every browser test and the dashboard benchmark drive: the chrome-headless-shell
// build inside the npm package @sparticuz/chromium, pinned exactly in package.json, so `npm ci`
// brings the same browser to every machine and no system package is needed. The package holds
// it brotli-compressed; `ensureChromium()` unpacks it once per install into
// node_modules/.cache/ (see docs/web.md, Tests). `CHROMIUM_PATH` drives another Chromium instead.
//
// The switches keep the browser quiet in a container: no sandbox (no user namespaces, may run as
// root), no GPU, no background requests, updates or sync, no first-run screens.

const packageDir = path.resolve(
  path.dirname(createRequire(import.meta.url).resolve('@sparticuz/chromium')),
  '..',
);
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The version of the package that carries the browser (Chromium 153.0.8010.0 in 153.0.0). */
export const CHROMIUM_PACKAGE_VERSION: string = JSON.parse(
  readFileSync(path.join(packageDir, 'package.json'), 'utf8'),
).version;

const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export type ChromiumLaunch = { executablePath: string; args: string[]; env?: Record<string, string> };

/** Where the pinned browser is unpacked: one folder per package version, inside this install. */
export function chromiumHome(cacheDir = path.join(repoRoot, 'node_modules/.cache')): string {
  return path.join(cacheDir, `chromium-${CHROMIUM_PACKAGE_VERSION}`);
}

/**
 * Playwright's launch options. Pure (touches no file), so the config can compute it in every
 * worker; the browser must have been unpacked by `ensureChromium()` before the first launch.
 */
export function chromiumLaunch(
  env: NodeJS.ProcessEnv = process.env,
  home: string = chromiumHome(),
): ChromiumLaunch {
  if (env.CHROMIUM_PATH) return { executablePath: env.CHROMIUM_PATH, args: ARGS };
  return {
    executablePath: path.join(home, 'chromium'),
    args: ARGS,
    // The package's NSS and expat (the only libraries the build needs beyond glibc) and its fonts,
    // so the browser renders the same everywhere, whatever the machine has installed.
    env: {
      ...(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined)) as Record<
        string,
        string
      >),
      LD_LIBRARY_PATH: [path.join(home, 'lib'), env.LD_LIBRARY_PATH].filter(Boolean).join(':'),
      FONTCONFIG_FILE: path.join(home, 'fonts.conf'),
    },
  };
}

/** One line for reports: which browser runs. */
export function describeChromium(env: NodeJS.ProcessEnv = process.env): string {
  return env.CHROMIUM_PATH
    ? `Chromium at ${env.CHROMIUM_PATH} (CHROMIUM_PATH)`
    : `chrome-headless-shell from @sparticuz/chromium ${CHROMIUM_PACKAGE_VERSION}`;
}

export type Unpacked = { executablePath: string; unpacked: boolean; ms: number };

/**
 * Unpacks the pinned browser if this install has not yet, and says where it is. Safe to call
 * from several processes at once: each unpacks into a private folder and renames it into place
 * (atomic on one file system); the first rename wins, the others throw their copy away. A folder
 * in place is therefore always complete, and an interrupted unpack leaves only a stray
 * `.partial-*` folder, never a half-written browser that looks ready.
 */
export async function ensureChromium(
  env: NodeJS.ProcessEnv = process.env,
  home: string = chromiumHome(),
): Promise<Unpacked> {
  const started = performance.now();
  if (env.CHROMIUM_PATH) {
    if (!existsSync(env.CHROMIUM_PATH)) throw new Error(`CHROMIUM_PATH=${env.CHROMIUM_PATH}: no such file`);
    return { executablePath: env.CHROMIUM_PATH, unpacked: false, ms: 0 };
  }
  const executablePath = path.join(home, 'chromium');
  if (existsSync(executablePath)) return { executablePath, unpacked: false, ms: 0 };
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(
      `@sparticuz/chromium carries a browser for Linux x64 only (this is ${process.platform} ${process.arch}): set CHROMIUM_PATH to a Chromium or Chrome executable`,
    );
  }
  mkdirSync(path.dirname(home), { recursive: true });
  const staging = await mkdtemp(`${home}.partial-`);
  try {
    const bin = path.join(packageDir, 'bin');
    await pipeline(
      createReadStream(path.join(bin, 'chromium.br')),
      createBrotliDecompress(),
      createWriteStream(path.join(staging, 'chromium'), { mode: 0o755 }),
    );
    // swiftshader: libraries beside the executable, where Chromium looks for them.
    await untar(path.join(bin, 'swiftshader.tar.br'), staging);
    await untar(path.join(bin, 'al2023.tar.br'), staging); // lib/
    await untar(path.join(bin, 'fonts.tar.br'), staging); // fonts/ (and a fonts.conf for /tmp, replaced)
    await writeFile(path.join(staging, 'fonts.conf'), fontsConf(home));
    try {
      renameSync(staging, home);
    } catch (error) {
      // Another process finished first: its copy is as good as ours.
      if (!existsSync(executablePath))
        throw new Error(`cannot put the browser in ${home} (remove that folder): ${error}`);
      await rm(staging, { recursive: true, force: true });
      return { executablePath, unpacked: false, ms: performance.now() - started };
    }
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
  return { executablePath, unpacked: true, ms: performance.now() - started };
}

/** Only the package's fonts (Open Sans): text is laid out the same on every machine. */
function fontsConf(home: string): string {
  const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  return `<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <dir>${xml(path.join(home, 'fonts'))}</dir>
  <cachedir>${xml(path.join(home, 'fonts-cache'))}</cachedir>
</fontconfig>
`;
}

/** Extracts a brotli-compressed tar with tar-fs, the package's own dependency. */
async function untar(file: string, into: string): Promise<void> {
  const tar = createRequire(path.join(packageDir, 'package.json'))('tar-fs') as {
    extract(dir: string): NodeJS.WritableStream;
  };
  await pipeline(createReadStream(file), createBrotliDecompress(), tar.extract(into));
}
