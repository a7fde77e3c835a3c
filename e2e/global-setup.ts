import { describeChromium, ensureChromium } from './support/chromium.ts';

// Runs once, in Playwright's main process, before any worker starts: the browser is unpacked
// here so that workers launching at the same moment never find it half written.
export default async function globalSetup(): Promise<void> {
  const { executablePath, unpacked, ms } = await ensureChromium();
  if (unpacked)
    console.log(`Unpacked ${describeChromium()} to ${executablePath} in ${(ms / 1000).toFixed(1)} s`);
}
