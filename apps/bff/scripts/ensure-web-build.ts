import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// Builds the dashboard (apps/web) when its build is missing, so `npm start -w apps/bff` and the
// root `npm start` serve it from a fresh checkout. A web app that cannot be built yet is not
// fatal: the BFF then serves its placeholder page.

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export type WebBuild = { status: 'present' | 'built' | 'unavailable'; dir: string; detail?: string };

export function ensureWebBuild(
  distDir = process.env.WEB_DIST_DIR || path.join(repoRoot, 'apps/web/dist'),
): WebBuild {
  const dir = path.resolve(distDir);
  if (existsSync(path.join(dir, 'index.html'))) return { status: 'present', dir };
  if (dir !== path.join(repoRoot, 'apps/web/dist')) {
    return { status: 'unavailable', dir, detail: `${dir} has no index.html` };
  }
  const webPackage = path.join(repoRoot, 'apps/web/package.json');
  const webIndex = path.join(repoRoot, 'apps/web/index.html');
  if (!existsSync(webPackage) || !existsSync(webIndex)) {
    return { status: 'unavailable', dir, detail: 'apps/web has no buildable app yet' };
  }
  // The same Node that runs us, with npm's own CLI when npm started us (PATH may hold another Node).
  const npmCli = process.env.npm_execpath;
  const command = npmCli?.endsWith('.js') ? process.execPath : 'npm';
  const args = [...(npmCli?.endsWith('.js') ? [npmCli] : []), 'run', 'build', '-w', 'apps/web'];
  process.stderr.write('Building the dashboard (apps/web) — first start only…\n');
  const result = spawnSync(command, args, { cwd: repoRoot, stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.status === 0 && existsSync(path.join(dir, 'index.html'))) return { status: 'built', dir };
  return {
    status: 'unavailable',
    dir,
    detail: result.error ? result.error.message : `npm run build -w apps/web exited with ${result.status}`,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const build = ensureWebBuild();
  if (build.status === 'unavailable') {
    process.stderr.write(
      `The dashboard could not be built (${build.detail}); serving a placeholder page instead.\n`,
    );
  }
}
