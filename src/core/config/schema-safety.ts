import { z } from 'zod';
import { flag, positiveInt, positiveNumber } from './schema-values.js';

/** `approvals.*`, `checkpoints.*` and `secrets.*`: the safety settings. */

export const ApprovalsSection = z.object({
  /** manual: dangerous commands ask the user; smart: a model judges first and asks only when unsure; off: nothing asks (hardline stays blocked). */
  mode: z.enum(['manual', 'smart', 'off'], { error: 'expected manual, smart or off' }).default('manual'),
  timeout_s: positiveNumber('a positive number of seconds').default(60),
  allowlist: z.array(z.string().min(1), { error: 'expected a list of command patterns' }).default([]),
  /** The model that judges commands in smart mode (`provider:model`); unset: the chat model. */
  smart_model: z.string().min(1).optional(),
  /** Dangerous commands from subagents: denied, or put to the user like the parent's. */
  subagents: z.enum(['deny', 'ask'], { error: 'expected deny or ask' }).default('deny'),
  /** Dangerous commands from scheduled jobs (nobody is there to ask): denied, or allowed. Hardline ones never run. */
  cron: z.enum(['deny', 'allow'], { error: 'expected deny or allow' }).default('deny'),
  /** The agent scheduling jobs, installing skills from outside, editing SOUL.md or the approval settings: ask first, or allow. */
  self_modification: z.enum(['ask', 'allow'], { error: 'expected ask or allow' }).default('ask'),
});

export const CheckpointsSection = z.object({
  /** Snapshot a project (in a shadow git store, never its own .git) before file edits and destructive commands. */
  enabled: flag().default(true),
  /** Checkpoints kept per project; the oldest go first. */
  max_count: positiveInt('a positive integer').default(50),
  /** Checkpoints older than this are dropped. */
  max_age_days: positiveInt('a positive integer (days)').default(30),
  /** Projects with more files than this are not snapshotted (the user is told once). */
  max_files: positiveInt('a positive integer').default(50_000),
  /** Files larger than this are left out of snapshots. */
  max_file_mb: positiveNumber('a positive number of megabytes').default(10),
});

export const SecretsSection = z.object({
  /** Replace known secret values and common key formats with [REDACTED …] in tool output, logs and transcripts. */
  redact: flag().default(true),
});

export const SecuritySection = z.object({
  /**
   * A model (`provider:model`, like `approvals.smart_model`) asked about text the injection scanner is unsure
   * of (its grey zone) before a memory or skill write; unset: the scanner decides alone.
   */
  injection_judge: z.string().min(1).optional(),
});
