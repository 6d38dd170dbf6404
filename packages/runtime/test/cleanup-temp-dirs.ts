import { cleanupTempDirs } from '@hankweave/durable-io/testing';
import { afterAll } from 'vitest';

// Every test file's temporary directories (`makeWorld`'s worlds, `makeTempDirSync`) are removed
// once the file is done: an end-to-end world holds a whole execution, shadow git included.
afterAll(cleanupTempDirs);
