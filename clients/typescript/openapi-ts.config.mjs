// `npm run generate` (or `make clients` at the repository's root): src/generated/ from the
// service's OpenAPI document. No formatter runs on the output, so it depends only on the spec
// and the generator's version, pinned in package-lock.json. The staleness check
// (tests/clients/test_generated.py) writes elsewhere through OPENAPI_TS_OUTPUT and compares.
export default {
  input: "../../openapi/openapi.json",
  output: {
    path: process.env.OPENAPI_TS_OUTPUT ?? "src/generated",
    clean: true,
    // Imports end in .js (NodeNext), so the compiled client runs under Node's ESM loader;
    // said here rather than read from tsconfig.json, which is not found from another output.
    module: { extension: ".js" },
  },
  plugins: ["@hey-api/client-fetch", "@hey-api/typescript", "@hey-api/sdk"],
};
