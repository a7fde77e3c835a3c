import { readFileSync } from 'node:fs';

// Memory of a child process as the kernel counts it: resident set now (VmRSS) and its peak since
// the process started (VmHWM). The peak catches a buffer that came and went between two samples.

export type Memory = { rssMb: number; peakMb: number };

export function memoryOf(pid: number): Memory {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
    if (!match) throw new Error(`no ${field} in /proc/${pid}/status`);
    return Number(match[1]);
  };
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
}

export const mb = (value: number) => Math.round(value * 10) / 10;
