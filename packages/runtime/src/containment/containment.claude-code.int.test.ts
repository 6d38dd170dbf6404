import { describeContainment } from '../testing.js';
import { claudeCodeContainment } from './containment-rigs.js';

// Issue 31's attacks on the real Claude Code, driven offline by the scripted model.
describeContainment(claudeCodeContainment);
