import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The renderer bundle, shared by the Electron window (`app://`) and web mode (`hearth serve`). Both serve it
 * under a CSP without 'unsafe-inline', so the build must emit no inline script or style: scripts and CSS are
 * files, and nothing is inlined as a data: URL.
 */
export default defineConfig({
  root: fileURLToPath(new URL('./src/renderer', import.meta.url)),
  base: './',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('./dist/renderer', import.meta.url)),
    emptyOutDir: true,
    assetsInlineLimit: 0,
    // Module preload is a static <link>; its polyfill would be an inline script.
    modulePreload: { polyfill: false },
    sourcemap: true,
    // One bundle loaded from disk (app://) or loopback: splitting would add requests without saving any network.
    chunkSizeWarningLimit: 1024,
  },
});
