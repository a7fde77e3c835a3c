// The browser every browser test and benchmark drives: Debian's Chromium (these machines download
// no browsers), with the switches that keep it quiet in a container — no sandbox (no user
// namespaces), no GPU, no background requests, updates or sync, no first-run screens.
export const CHROMIUM_LAUNCH = {
  executablePath: '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
};
