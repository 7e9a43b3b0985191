// Bun's bundler turns `import "./styles.css"` into the bundle's stylesheet; TypeScript only needs to know it exists.
declare module "*.css";
