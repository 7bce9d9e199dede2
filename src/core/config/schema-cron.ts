import { z } from 'zod';
import { flag, positiveInt } from './schema-values.js';

/** `cron.*`: scheduled jobs (issue 13, `core/cron/`). */
export const CronSection = z.object({
  enabled: flag().default(true),
  /** A run missed while nothing was ticking still runs when it is at most this late (minutes). */
  catch_up_minutes: positiveInt('a positive number of minutes').default(60),
});
