// `npm run generate` (or `make clients` at the repository's root): src/generated/ from the
// service's OpenAPI document. No formatter runs on the output, so it depends only on the
// generator's version, pinned in package-lock.json.
export default {
  input: "../../openapi/openapi.json",
  output: { path: "src/generated", clean: true },
  plugins: ["@hey-api/client-fetch", "@hey-api/typescript", "@hey-api/sdk"],
};
