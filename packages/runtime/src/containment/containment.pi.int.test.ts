import { describeContainment } from '../testing.js';
import { piContainment } from './containment-rigs.js';

// Issue 31's attacks on the real Pi, driven offline by the scripted model.
describeContainment(piContainment);
