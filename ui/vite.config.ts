import { defineConfig } from "vite";
import { svelte } from "@sveltejs/vite-plugin-svelte";

// The app is served by Tauri from ui/dist; there is no dev server in the loop.
export default defineConfig({
  plugins: [svelte()],
  clearScreen: false,
  build: { outDir: "dist", emptyOutDir: true, target: "safari15" },
  test: { include: ["src/**/*.test.ts"] },
});
