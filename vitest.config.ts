import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    // Native modules (SQLCipher, llama.cpp) and child processes: isolate files in forks.
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two cores: running more files at once only makes the model tests starve.
    maxWorkers: 2,
    // The injection scanner's learned weights are a build output; train them if this checkout has none.
    globalSetup: ['test/global-setup-injection-model.ts'],
    // Every test home starts empty, as the tests expect; test/skills-starter.test.ts turns the starter skills on.
    env: { HEARTH_STARTER_SKILLS: 'off' },
  },
});
