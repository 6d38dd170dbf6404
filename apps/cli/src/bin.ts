// The compile cache serves only modules loaded after it is on: the CLI itself is imported after.
import { enableCompileCache } from './compile-cache.js';

enableCompileCache();
await import('./process-main.js');
