// Files that esbuild turns into URLs or bundles as side effects.
declare module '*.css';
declare module '*.svg' {
  const url: string;
  export default url;
}
