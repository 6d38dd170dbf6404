import { join } from 'node:path';

/** The files of the state store inside a `.hankweave` directory (seed 000 "File Locations"). */
export interface StatePaths {
  dir: string;
  primary: string;
  backup: string;
  temp: string;
  runsDir: string;
  lock: string;
}

/** Paths of `state.json`, `state.json.bak`, `state.json.tmp`, `runs/` and `runtime.lock`. */
export const statePaths = (hankweaveDir: string): StatePaths => ({
  dir: hankweaveDir,
  primary: join(hankweaveDir, 'state.json'),
  backup: join(hankweaveDir, 'state.json.bak'),
  temp: join(hankweaveDir, 'state.json.tmp'),
  runsDir: join(hankweaveDir, 'runs'),
  lock: join(hankweaveDir, 'runtime.lock'),
});
