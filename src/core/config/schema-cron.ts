import { z } from 'zod';
import { flag, positiveInt } from './schema-values.js';

/** An IANA time zone this runtime knows ("Europe/Berlin", "UTC"). */
const timeZone = z.string().refine(
  (value) => {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: value });
      return true;
    } catch {
      // RangeError is how Intl says the zone is unknown; the refinement's message names the fix.
      return false;
    }
  },
  { error: 'expected an IANA time zone such as Europe/Berlin or UTC' },
);

/** `cron.*`: scheduled jobs (issue 13, `core/cron/`). */
export const CronSection = z.object({
  enabled: flag().default(true),
  /** A run missed while nothing was ticking still runs when it is at most this late (minutes); later ones are recorded as missed. */
  catch_up_minutes: positiveInt('a positive number of minutes').default(60),
  /** The zone cron expressions are read in when a job names none (default: this computer's zone). */
  timezone: timeZone.optional(),
  /** How many times a failed run (the job or one of its deliveries) is tried in all, the first included. */
  max_attempts: positiveInt('a positive number of attempts').default(3),
  /** Seconds before the first retry; each further retry waits twice as long. */
  retry_backoff_s: positiveInt('a positive number of seconds').default(60),
  /** A run still going after this many minutes is stopped and recorded as failed. */
  run_timeout_minutes: positiveInt('a positive number of minutes').default(30),
});

export type CronSettings = z.infer<typeof CronSection>;
