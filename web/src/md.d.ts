/** Markdown files are bundled as text (esbuild's `text` loader, see build.mjs). */
declare module "*.md" {
  const text: string;
  export default text;
}
