import { RuntimeError } from '../errors.js';
import type { CreateRuntimeOptions } from '../runtime/create-runtime-options.js';
import type { RuntimeSettings } from '../runtime/runtime-context.js';
import type { BudgetSources } from './resolve-budget.js';

const positive = (name: string, value: number | undefined): number | undefined => {
  if (value === undefined) return undefined;
  if (!Number.isFinite(value) || value <= 0) {
    throw new RuntimeError(
      'RUNTIME_INVALID_OPTION',
      `${name} must be a number > 0 (got ${value})`,
      {
        details: { option: name, value },
      },
    );
  }
  return value;
};

/**
 * The budget part of the runtime's settings, from `budget`, `maxCost` and `maxTime`.
 *
 * @throws {RuntimeError} RUNTIME_INVALID_OPTION for a ceiling that is not a number > 0.
 */
export function budgetSettings(options: CreateRuntimeOptions): Pick<RuntimeSettings, 'budget'> {
  const runtimeDollars = positive('budget.maxDollars', options.budget?.maxDollars);
  const runtimeSeconds = positive('budget.maxTimeSeconds', options.budget?.maxTimeSeconds);
  const maxCost = positive('maxCost', options.maxCost);
  const maxTime = positive('maxTime', options.maxTime);
  const runtime = {
    ...(runtimeDollars !== undefined ? { maxDollars: runtimeDollars } : {}),
    ...(runtimeSeconds !== undefined ? { maxTimeSeconds: runtimeSeconds } : {}),
  };
  const budget: BudgetSources = {
    ...(Object.keys(runtime).length > 0 ? { runtime } : {}),
    ...(maxCost !== undefined ? { maxCost } : {}),
    ...(maxTime !== undefined ? { maxTime } : {}),
  };
  return Object.keys(budget).length > 0 ? { budget } : {};
}
