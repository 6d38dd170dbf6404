import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';

// `vite` (development) forwards /api to a running `hankweave ui --port 4780`; that server wants
// its token and a same-origin Origin, which the proxy supplies (set HANKWEAVE_UI_TOKEN to the
// token it printed).
const target = process.env.HANKWEAVE_UI_URL ?? 'http://127.0.0.1:4780';
const token = process.env.HANKWEAVE_UI_TOKEN;

// Built into static assets that `hankweave ui` serves under a strict CSP (script-src 'self',
// style-src 'self'): no inline scripts or styles, nothing fetched from another origin.
export default defineConfig({
  plugins: [preact()],
  // Root-relative asset URLs (`/assets/...`): deep links such as `/executions/x/codons/y` get the
  // same index.html, so document-relative URLs would resolve under the deep path, and the CSP's
  // `base-uri 'none'` rules out a `<base href>`.
  base: '/',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // Small files stay files: the CSP refuses data: URLs for scripts, styles and fonts.
    assetsInlineLimit: 0,
    sourcemap: false,
  },
  server: {
    proxy: {
      '/api': {
        target,
        changeOrigin: true,
        headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
        configure: (proxy) => {
          proxy.on('proxyReq', (request) => {
            if (request.getHeader('origin') !== undefined) request.setHeader('origin', target);
          });
        },
      },
    },
  },
});
