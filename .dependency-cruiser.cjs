/** Import rules for src (npm run lint): no circles, and the layers that must not reach each other. */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "A circle makes the modules in it one unit: nothing in it can be read, tested or loaded alone.",
      from: {},
      to: { circular: true },
    },
    {
      name: "no-circular-folders",
      severity: "error",
      scope: "folder",
      comment: "Domains (folders) that reach each other in a knot cannot be understood or changed one at a time.",
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default", "types"] },
  },
};
