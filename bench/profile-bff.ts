import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { runLoad } from './lib/load.ts';
import { tempDir } from './lib/processes.ts';
import { placeOf, summariseProfiles } from './lib/profile.ts';
import { printTable, type Table } from './lib/report.ts';
import { login, requestFor, startBenchApi, startBenchBff } from './proxy.ts';

// Where the BFF spends its CPU on one kind of call: starts the API (demo data, limits lifted) and
// one BFF process with --cpu-prof, loads it with GET /api/v1/reviews or the send, and prints the
// BFF's self time by package, Node module and source file.
//
//   npx node bench/profile-bff.ts read|send [--connections 10] [--seconds 6] [--workers 1] [--keep <dir>] [--on-cpu]
//
// V8's profiler samples wall time: a process descheduled inside a socket write (the reader woken
// on the other core) shows that write as busy. --on-cpu samples with Linux `perf` instead (CPU time
// only, kernel included: page faults, syscalls, the compiler and GC threads), each sample
// counted where its innermost script frame is, as the V8 summary counts a built-in.

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    connections: { type: 'string', default: '10' },
    seconds: { type: 'string', default: '6' },
    workers: { type: 'string', default: '1' },
    /** Keep the profiles in this folder (for a closer look, e.g. in Chrome's DevTools). */
    keep: { type: 'string' },
    'on-cpu': { type: 'boolean', default: false },
  },
});
const endpoint = positionals[0] === 'send' ? 'send' : 'read';
if (values['on-cpu'] && spawnSync('perf', ['--version']).status !== 0)
  throw new Error('--on-cpu needs Linux perf (and the right to record another process)');
const temp = tempDir('rd-bench-profile-');
const profiles = values.keep ?? path.join(temp.dir, 'profiles');
mkdirSync(profiles, { recursive: true });
try {
  const { api, keyFile } = await startBenchApi(temp.dir);
  const onCpu = values['on-cpu'];
  const bff = await startBenchBff(temp.dir, api.url, keyFile, {
    name: 'bff',
    workers: values.workers,
    // perf names script frames from V8's jitdump (jit-<pid>.dump, one record per compiled function
    // with its load time): `perf inject --jit` then maps each sample to the code that was at that
    // address when it was taken. The plain symbol map (--perf-basic-prof) names an address by any
    // code ever placed there, and V8 reuses the addresses of code it has freed.
    nodeArgs: onCpu
      ? [
          '--perf-prof',
          `--perf-prof-path=${profiles}`,
          '--no-logfile-per-isolate',
          `--logfile=${path.join(profiles, 'v8.log')}`,
        ]
      : ['--cpu-prof', `--cpu-prof-dir=${profiles}`],
  });
  const cookie = await login(bff.url);
  // A read carries only the session cookie (the dashboard's reads send no Origin); a send the
  // CSRF header and Origin too.
  const request =
    endpoint === 'read'
      ? requestFor('read', { cookie })
      : requestFor('send', { cookie, 'x-csrf': '1', origin: bff.url });
  const connections = Number(values.connections);
  await runLoad({ url: bff.url, connections, seconds: 2, request });
  const perfData = path.join(profiles, 'perf.data');
  const recorder = onCpu
    ? spawn('perf', ['record', '-k', 'monotonic', '-F', '999', '-g', '-o', perfData, '-p', String(bff.pid)], {
        stdio: 'ignore',
      })
    : null;
  const before = bff.cpuMs();
  const result = await runLoad({ url: bff.url, connections, seconds: Number(values.seconds), request });
  const cpuUs = ((bff.cpuMs() - before) * 1000) / result.ok;
  if (recorder) {
    recorder.kill('SIGINT');
    await new Promise((resolve) => recorder.once('exit', resolve));
  }
  await bff.stop();
  await api.stop();
  console.log(
    `${endpoint === 'read' ? 'GET /api/v1/reviews' : 'POST /api/v1/requests/send'} through the BFF, ${connections} connections: ${Math.round(result.rps)} req/s, p50 ${result.p50.toFixed(2)} ms, ${Math.round(cpuUs)} µs BFF CPU per request${onCpu ? '' : ' (warm-up included in the profile below)'}`,
  );
  const table = onCpu ? summarisePerf(perfData, 30, result.ok) : null;
  printTable(table ?? summariseProfiles(profiles, 'BFF self time', 30));
} finally {
  temp.cleanup();
}

/** A `perf record -g` of the BFF, each on-CPU sample counted at its innermost script frame. */
/** `requests`: answered during the recording, for each place's CPU per request (perf samples 999 times per CPU second). */
function summarisePerf(file: string, top: number, requests: number): Table {
  const injected = `${file}.jit`;
  const inject = spawnSync('perf', ['inject', '--jit', '-i', file, '-o', injected], { encoding: 'utf8' });
  if (inject.status !== 0) throw new Error(`perf inject failed: ${inject.stderr || inject.error}`);
  const script = spawnSync('perf', ['script', '-i', injected], { encoding: 'utf8', maxBuffer: 1 << 30 });
  if (script.status !== 0) throw new Error(`perf script failed: ${script.stderr || script.error}`);
  const counts = new Map<string, number>();
  let total = 0;
  for (const sample of script.stdout.split('\n\n')) {
    const frames = sample.split('\n').slice(1);
    if (frames.length === 0) continue;
    total++;
    // A JIT frame reads `JS:<tier>'name url:line:column+offset`; `url` is a file URL, a path or node:….
    const js = frames.map((frame) => /\bJS:[~^+*']*(?:\S*\s)?(\S+?):\d+:\d+/.exec(frame)).find(Boolean);
    const place = js
      ? placeOf({ url: js[1] as string, functionName: '' })
      : (frames[0] ?? '').includes('[kernel.kallsyms]')
        ? '(kernel, outside a script: threads, event loop)'
        : /Compil|compiler|maglev|turboshaft/.test(sample)
          ? '(V8 compiler threads)'
          : /Scaveng|Marking|Sweep|Heap::/.test(sample)
            ? '(garbage collector)'
            : '(native, outside a script)';
    counts.set(place, (counts.get(place) ?? 0) + 1);
  }
  const rows = [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([place, n]) => [
      place,
      n,
      `${((n / Math.max(total, 1)) * 100).toFixed(1)} %`,
      ((n / 999) * 1e6) / Math.max(requests, 1),
    ]);
  return {
    title: 'BFF on-CPU samples (perf, measured load only)',
    note: `Each sample counted at its innermost script frame (kernel and native time included); ${total} samples.`,
    columns: ['where', 'samples', 'share', 'µs per request'],
    rows,
  };
}
