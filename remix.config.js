/**
 * Remix 2 on the classic compiler (docs/decisions/001-remix-classic-compiler.md).
 * Route modules live in app/routes (flat routes). Server-only helpers carry `.server` in their name.
 * @type {import('@remix-run/dev').AppConfig}
 */
export default {
  ignoredRouteFiles: ['**/.*', '**/*.test.*', '**/__*.*'],
  serverModuleFormat: 'esm',
  serverPlatform: 'node',
  tailwind: true,
  postcss: true,
  watchPaths: [],
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_lazyRouteDiscovery: true,
    v3_singleFetch: false,
  },
}
