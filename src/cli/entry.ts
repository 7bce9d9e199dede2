// Run the CLI from TypeScript source (`node --import tsx src/cli/entry.ts …`): used by tests and development.
import { main } from './main.js';

process.exitCode = await main(process.argv.slice(2));
