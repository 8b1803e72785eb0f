/** The anonymous visitor's page permission set, from the build (src/server/static/guest-permissions.ts). */
declare module "virtual:guest-permissions" {
  const rules: string[];
  export default rules;
}
