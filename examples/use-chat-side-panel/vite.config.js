// Two entries: the side panel (panel.html, with its script) and the service worker, which the
// manifest names, so it is built to a fixed name (sw.js) at the root of dist/. public/ holds the
// manifest, copied as is. `npm run build`, then load dist/ unpacked. (Vite 7 and older call
// `rolldownOptions` `rollupOptions`.)
/** @type {import("vite").UserConfig} */
export default {
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    rolldownOptions: {
      input: { panel: "panel.html", sw: "src/sw.js" },
      output: { entryFileNames: "[name].js" },
      // React libraries (swr, under @ai-sdk/react) start with "use client", a directive for
      // server components that means nothing in a page's bundle: not worth a warning.
      onLog(level, log, handler) {
        if (log.code !== "MODULE_LEVEL_DIRECTIVE") handler(level, log);
      },
    },
  },
};
