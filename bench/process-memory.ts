import { readFileSync } from 'node:fs';

/** A process's memory as Linux reports it, in MiB. */
export interface ProcessMemory {
  /** Resident set size now (VmRSS). */
  residentMegabytes: number;
  /** The highest resident set size so far (VmHWM). */
  peakResidentMegabytes: number;
}

/** Reads `/proc/<pid>/status` (Linux only; NaN elsewhere). */
export function processMemory(pid: number): ProcessMemory {
  let status = '';
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    // Not Linux, or the process is gone: the figures read as NaN.
  }
  const kibibytes = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { residentMegabytes: kibibytes('VmRSS') / 1024, peakResidentMegabytes: kibibytes('VmHWM') / 1024 };
}
