import { defineConfig } from "vite";
import { svelte } from "@sveltejs/vite-plugin-svelte";

// The app is served by Tauri from ui/dist; there is no dev server in the loop.
export default defineConfig(({ mode }) => ({
  plugins: [svelte()],
  clearScreen: false,
  build: { outDir: "dist", emptyOutDir: true, target: "safari15" },
  // Component tests mount Svelte's browser build in jsdom (@testing-library/svelte).
  resolve: mode === "test" ? { conditions: ["browser"] } : undefined,
  // A component's test asks for jsdom itself (`// @vitest-environment jsdom`).
  test: { include: ["src/**/*.test.ts"] },
}));
