/** The machine the bench ran on, for the report. */
import os from 'node:os';

export interface Machine {
  cpu: string;
  cores: number;
  memoryGiB: number;
  node: string;
  os: string;
  date: string;
}

export function machine(): Machine {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model.trim() || 'unknown',
    cores: cpus.length,
    memoryGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    os: `${os.platform()} ${os.release()} (${os.arch()})`,
    date: new Date().toISOString(),
  };
}
