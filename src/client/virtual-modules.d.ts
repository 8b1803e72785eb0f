/** The anonymous visitor's page permission set, from the build (src/server/static/guest-permissions.ts). */
declare module "virtual:guest-permissions" {
  const rules: string[];
  export default rules;
}

/** The address of antd's styles extracted by the build, null in dev and tests (src/server/static/antd-styles.ts). */
declare module "virtual:antd-styles" {
  const href: string | null;
  export default href;
}
