/** swagger-ui-dist ships no types; the gateway only needs where its files are (not its index, which loads the browser bundle). */
declare module "swagger-ui-dist/absolute-path.js" {
  const getAbsoluteFSPath: () => string;
  export = getAbsoluteFSPath;
}
